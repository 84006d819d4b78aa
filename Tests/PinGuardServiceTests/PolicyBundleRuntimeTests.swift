import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardServiceTestSupport
import PinGuardTestSupport
import XCTest

/// A signed policy bundle in the running service: its pins are evaluated, and when a reload brings a bundle
/// that fails verification the service keeps judging with the payload verified before (as the apps do) and
/// says so on /metrics.
final class PolicyBundleRuntimeTests: XCTestCase {
    private let served = InProcessService.pin(byte: 1)

    func testAForgedBundleOnReloadKeepsThePreviouslyVerifiedPins() async throws {
        let files = try SignedBundleFiles.make(payload: SignedBundleFiles.payload(pattern: "*.test", spki: served))
        let dir = try TemporaryDirectory.make("pinguard-bundle-runtime")
        let bundle = dir.appendingPathComponent("bundle.json").path
        try FileManager.default.copyItem(atPath: files.blob("hmac-good"), toPath: bundle)
        let config = InProcessService.config(hosts: ["a.test"]) + """
        policy_bundles:
          - {name: remote-app, bundle: \(bundle), hmac_secrets: {key-v1: \(files.hmacSecret)}}

        """
        let s = try InProcessService(config: config,
                                     policies: ["other.yml": InProcessService.policy(name: "other", pattern: "other.example", pins: [served])])
        s.serve("a.test", key: served)
        _ = await s.runtime.runRound(spread: false)
        func evaluation() -> Evaluation? {
            s.runtime.snapshot().results.first?.evaluations.first { $0.policySet == "remote-app" }
        }
        func metrics() -> String { String(decoding: MetricsRenderer.render(s.runtime.snapshot()), as: UTF8.self) }
        XCTAssertEqual(evaluation()?.reason, .pinMatch, "the verified payload's pins are evaluated")
        XCTAssertTrue(metrics().contains("pinguard_policy_bundle_valid{policy_set=\"remote-app\",environment=\"prod\"} 1\n"), metrics())

        try FileManager.default.removeItem(atPath: bundle)
        try FileManager.default.copyItem(atPath: files.blob("ecdsa-bad"), toPath: bundle)
        _ = try await s.runtime.reload(trigger: "test").get()
        _ = await s.runtime.runRound(spread: false)
        XCTAssertEqual(evaluation()?.reason, .pinMatch, "clients keep the pins verified before")
        let text = metrics()
        XCTAssertTrue(text.contains("pinguard_policy_bundle_valid{policy_set=\"remote-app\",environment=\"prod\"} 0\n"), text)
        XCTAssertTrue(text.contains("pinguard_policy_bundle_info{policy_set=\"remote-app\",environment=\"prod\",status=\"unknown_key\","
                                    + "scheme=\"ecdsa_p256\",key_id=\"pins-2026\",kept_pins=\"previous_verified\"} 1\n"), text)
    }
}
