import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// A bundle that stops verifying on a reload: the apps keep the payload they verified before, and so does pinguard.
final class PolicyBundleReloadTests: XCTestCase {
    func testARejectedBundleFallsBackToThePreviouslyVerifiedPayload() throws {
        let spki = Base64.encode([UInt8](repeating: 7, count: 32))
        let files = try SignedBundleFiles.make(payload: SignedBundleFiles.payload(pattern: "api.example.com", spki: spki))
        let dir = try TemporaryDirectory.make("pinguard-bundle-reload")
        let bundle = dir.appendingPathComponent("bundle.json")
        let config = dir.appendingPathComponent("pinguard.yml").path
        try """
        policies: []
        policy_bundles:
          - name: remote-app
            bundle: bundle.json
            hmac_secrets: {key-v1: \(files.hmacSecret)}
        targets:
          - host: api.example.com
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: files.blob("hmac-good"), toPath: bundle.path)
        let first = try ConfigurationLoader.load(path: config)
        XCTAssertEqual(first.bundles.map(\.state), [.valid])
        XCTAssertEqual(first.policySets.map(\.name), ["remote-app"])

        try FileManager.default.removeItem(at: bundle)
        try FileManager.default.copyItem(atPath: files.blob("hmac-bad"), toPath: bundle.path)
        var second = try ConfigurationLoader.load(path: config)
        XCTAssertEqual(second.bundles.map(\.state), [.invalidSignature])
        XCTAssertEqual(second.bundles.first?.kept, PolicyBundleKeptPins.none, "a fresh start has seen no verified payload")
        XCTAssertEqual(second.policySets.map(\.name), [])
        second.carryOverBundles(from: first.bundles)
        XCTAssertEqual(second.bundles.first?.kept, .previousVerified)
        XCTAssertEqual(second.policySets.map(\.name), ["remote-app"])
        let pins = second.policySets.first?.environments["prod"]?.rules.first?.policy.pins.map(\.hash)
        XCTAssertEqual(pins, [spki])
        XCTAssertEqual(JournalEntry.policyBundleRejected(try XCTUnwrap(second.bundles.first)).field("PINGUARD_KEPT_PINS"),
                       "previous_verified")
    }
}
