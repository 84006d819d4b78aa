import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// `plan` forecasts a renewal under another issuer of the configured pool on the path each Android version builds
/// above that issuer: the new issuer chains to a new root that newer versions' stores hold, so those versions
/// reject the next chain though every version accepts today's.
final class PlanNextIssuerPathsTests: XCTestCase {
    func testARenewalUnderAnIssuerOfANewRootIsForetoldToBreakTheVersionsWhoseStoreHoldsThatRoot() throws {
        let pki = try GenerationMovePKI()
        // Today: a leaf under an intermediate of X2, served with X2 cross-signed by X1.
        let (todayCA, leaf) = try GenerationMovePKI.issuing("Test X2 CA", under: pki.x2, serial: 20)
        // The pool's next issuer: an intermediate of the new root YE, served with YE cross-signed by X2 and X2 by X1.
        let nextCA = try GenerationMovePKI.issuing("Test YE2", under: pki.ye, serial: 22).ca
        let dir = try TemporaryDirectory.make("pinguard-plan-next-issuer").path
        try (leaf.pem + todayCA.pem + pki.x2ByX1.pem).write(toFile: "\(dir)/candidate.pem", atomically: true, encoding: .utf8)
        try (nextCA.pem + pki.yeByX2.pem + pki.x2ByX1.pem).write(toFile: "\(dir)/next.pem", atomically: true, encoding: .utf8)
        try pki.storesJSON(client: "android", known: "24-37", roots: ["x1": "25-", "x2": "34-", "ye": "36-"], changes: [])
            .write(toFile: "\(dir)/stores.json", atomically: true, encoding: .utf8)
        try pki.androidPolicy(clientVersions: "25-37").write(toFile: "\(dir)/app.yml", atomically: true, encoding: .utf8)
        try """
        trust: {client_stores: "\(dir)/stores.json"}
        policies: ["\(dir)/app.yml"]
        renewal: {issuers: next, key: rotate}
        issuer_pools: {next: ["\(dir)/next.pem"]}

        """.write(toFile: "\(dir)/pinguard.yml", atomically: true, encoding: .utf8)

        var options = PlanCommand.Options(hosts: [GenerationMovePKI.host], toolVersion: "9.9.9-test", now: Date())
        options.chains = ["\(dir)/candidate.pem"]
        options.config = "\(dir)/pinguard.yml"
        options.format = .json
        let r = PlanCommand.run(options)
        XCTAssertEqual(r.status, 0, "every version the app runs on accepts today's chain: \(r)")
        let object = try XCTUnwrap(try r.json() as? [String: Any], r.description)
        let candidate = try XCTUnwrap((object["candidates"] as? [[String: Any]])?.first)
        let forecast = try XCTUnwrap(candidate["forecast"] as? [String: Any], "\(candidate)")
        XCTAssertEqual(forecast["issuers"] as? [String], ["Test YE2"])
        let set = try XCTUnwrap((forecast["sets"] as? [[String: Any]])?.first)
        XCTAssertEqual(set["reject_ratio"] as? Double, 1, "API 36-37 anchor above Test YE2 at Test Root YE, which the app does not pin: \(set)")
        XCTAssertEqual(set["rejecting_versions"] as? String, "Android API 36-37")
        XCTAssertEqual(set["uncovered_issuers"] as? [String], ["Test YE2"])
    }
}
