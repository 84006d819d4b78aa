import Foundation
import PinGuardCore
import PinGuardCTTestSupport
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// Each client's CT verdict on real SCTs (test logs, precertificates, `openssl s_server`), and `probe`,
/// `plan` and `serve --once` agreeing on it, through one service configuration.
final class CTClientVerdictsTests: XCTestCase {
    /// Logs 0 and 2 are operator A's, log 1 operator B's; log 3 is on no list.
    struct Setup {
        let fixture: CTFixture
        let folder: String

        init(chromeListAge: TimeInterval = 86_400, retiredLog1Since: Date? = nil, publicRoots: Bool = true) throws {
            fixture = try CTFixture.shared()
            folder = try TemporaryDirectory.make("pinguard-ct-verdicts").path
            let state: CTLogState = retiredLog1Since == nil ? .usable : .retired
            let entries = [TestLogListEntry(log: fixture.logs[0], operatorName: "A"),
                           TestLogListEntry(log: fixture.logs[1], operatorName: "B", state: state,
                                            stateSince: retiredLog1Since ?? Date(timeIntervalSince1970: 1_704_067_200)),
                           TestLogListEntry(log: fixture.logs[2], operatorName: "A")]
            try TestLogListJSON.write(to: "\(folder)/apple.json", timestamp: Date().addingTimeInterval(-86_400), entries: entries)
            try TestLogListJSON.write(to: "\(folder)/chrome.json", timestamp: Date().addingTimeInterval(-chromeListAge), entries: entries)
            try FileManager.default.createDirectory(atPath: "\(folder)/policies", withIntermediateDirectories: true)
            for (name, extra) in [("ios-app", "client: ios"), ("chrome-app", "client: chrome"),
                                  ("android-app", "client: android\ncertificate_transparency: required"), ("okhttp-app", "client: jvm")] {
                try "name: \(name)\n\(extra)\nenvironments:\n  prod:\n    default_policy: {pins: []}\n"
                    .write(toFile: "\(folder)/policies/\(name).yml", atomically: true, encoding: .utf8)
            }
            let roots = publicRoots ? ", public_roots: \(fixture.pki.caFile)" : ""
            try """
            trust: {ca_file: \(fixture.pki.caFile)}
            ct: {log_lists: {apple: apple.json, chrome: chrome.json}\(roots)}
            policies: [policies/*.yml]
            """.write(toFile: "\(folder)/pinguard.yml", atomically: true, encoding: .utf8)
        }

        var config: String { "\(folder)/pinguard.yml" }
    }

    /// The verdict of each set (`accept`/`reject`) from `probe --json`, `plan --format json` and `serve --once`,
    /// after checking that the three agree (plan only without `tlsSCTs`, which no certificate file holds).
    func verdicts(_ setup: Setup, leaf: DemoCertificate, tlsSCTs: [UInt8]? = nil,
                  file: StaticString = #filePath, line: UInt = #line) throws -> [String: String] {
        let server = try setup.fixture.pki.server(leaf: leaf, tlsSCTs: tlsSCTs)
        defer { server.stop() }
        let policies = ["ios-app", "chrome-app", "android-app", "okhttp-app"].flatMap { ["--policy", "\(setup.folder)/policies/\($0).yml"] }
        let probe = try PinguardCLI.run(["probe", "ct.pinguard.test:\(server.port)", "--connect", "127.0.0.1", "--config", setup.config,
                                         "--json"] + policies)
        let probed = try Self.byPolicySet(probe.stdout, key: "evaluations")
        let chain = try setup.fixture.pki.write(leaf.pem + setup.fixture.pki.intermediate.pem, to: "candidate-\(server.port).pem")
        let plan = try PinguardCLI.run(["plan", "--chain", chain, "--host", "ct.pinguard.test", "--config", setup.config, "--format", "json"])
        let planned = try Self.byPolicySet(plan.stdout, key: "verdicts")
        try "targets:\n  - {host: ct.pinguard.test, port: \(server.port), connect: 127.0.0.1}\n"
            .write(toFile: "\(setup.folder)/targets.yml", atomically: true, encoding: .utf8)
        let config = try String(contentsOfFile: setup.config, encoding: .utf8)
        let served = "\(setup.folder)/serve.yml"
        try (config + "\ntargets:\n  - {host: ct.pinguard.test, port: \(server.port), connect: 127.0.0.1}\njournal: {enabled: false}\n")
            .write(toFile: served, atomically: true, encoding: .utf8)
        let once = try PinguardCLI.run(["serve", "--once", "--config", served])
        var servedVerdicts: [String: String] = [:]
        for row in once.stdout.split(separator: "\n") {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let set = cells.first(where: { $0.hasSuffix("/prod") }), let i = cells.firstIndex(of: set), i + 1 < cells.count else { continue }
            servedVerdicts[String(set.dropLast(5))] = cells[i + 1].lowercased() + "/" + cells[i + 2]
        }
        if tlsSCTs == nil {
            XCTAssertEqual(probed, planned, "probe and plan agree:\n\(probe.stderr)\n\(plan.stderr)", file: file, line: line)
        } else {
            // A certificate file carries no SCTs the server delivers in the handshake: plan judges without them.
            XCTAssertEqual(planned["ios-app"], "reject/ct_not_compliant", plan.stdout, file: file, line: line)
        }
        XCTAssertEqual(probed, servedVerdicts, "probe and serve --once agree:\n\(once.stdout)\(once.stderr)", file: file, line: line)
        return probed.mapValues { String($0.split(separator: "/")[0]) }
    }

    /// `policy_set -> verdict/reason` of a JSON document's `key` array.
    static func byPolicySet(_ json: String, key: String) throws -> [String: String] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        let rows = try XCTUnwrap(object[key] as? [[String: Any]], json)
        var out: [String: String] = [:]
        for r in rows {
            out[r["policy_set"] as? String ?? "?"] = "\(r["verdict"] as? String ?? "?")/\(r["reason"] as? String ?? "?")"
        }
        return out
    }

    func expect(_ v: [String: String], ios: String, chrome: String, android: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(v, ["ios-app": ios, "chrome-app": chrome, "android-app": android, "okhttp-app": "accept"], file: file, line: line)
    }

    func testTwoEmbeddedSCTsFromTwoOperatorsAreCompliantForEveryClient() throws {
        let s = try Setup()
        expect(try verdicts(s, leaf: try s.fixture.embeddedLeaf(scts: s.fixture.scts([0, 1])).certificate),
               ios: "accept", chrome: "accept", android: "accept")
    }

    func testTwoSCTsFromOneOperatorAreRejected() throws {
        let s = try Setup()
        expect(try verdicts(s, leaf: try s.fixture.embeddedLeaf(scts: s.fixture.scts([0, 2])).certificate),
               ios: "reject", chrome: "reject", android: "reject")
    }

    func testA180DayCertificateIsOneSCTShortForApple() throws {
        let s = try Setup()
        let leaf = try CTCertificateIssuer.issue(commonName: "ct.pinguard.test", dnsName: "ct.pinguard.test", key: try DemoKey(),
                                                 issuer: s.fixture.pki.intermediate, validFrom: -3600, validUntil: 180 * 86_400 - 3600,
                                                 serial: 4242, embedding: s.fixture.scts([0, 1]))
        expect(try verdicts(s, leaf: leaf.certificate), ios: "reject", chrome: "accept", android: "accept")
    }

    func testAnSCTWithABadSignatureOrFromAnUnlistedLogDoesNotCount() throws {
        let s = try Setup()
        let corrupt = [TestSCT(log: s.fixture.logs[0], timestamp: s.fixture.issued),
                       TestSCT(log: s.fixture.logs[1], timestamp: s.fixture.issued, corruptSignature: true)]
        expect(try verdicts(s, leaf: try s.fixture.embeddedLeaf(scts: corrupt).certificate), ios: "reject", chrome: "reject", android: "reject")
        expect(try verdicts(s, leaf: try s.fixture.embeddedLeaf(scts: s.fixture.scts([0, 3])).certificate),
               ios: "reject", chrome: "reject", android: "reject")
    }

    func testARetiredLogCountsOnlyForSCTsBeforeItsRetirement() throws {
        let leafSCTs = { (s: Setup) in try s.fixture.embeddedLeaf(scts: s.fixture.scts([0, 1])).certificate }
        let after = try Setup(retiredLog1Since: Date().addingTimeInterval(-60))
        expect(try verdicts(after, leaf: try leafSCTs(after)), ios: "accept", chrome: "accept", android: "accept")
        let before = try Setup(retiredLog1Since: Date().addingTimeInterval(-7200))
        expect(try verdicts(before, leaf: try leafSCTs(before)), ios: "reject", chrome: "reject", android: "reject")
    }

    func testSCTsInTheTLSExtensionAloneAreCompliant() throws {
        let s = try Setup()
        let leaf = try s.fixture.plainLeaf()
        let list = try TestSCTList.overCertificate(leaf, scts: s.fixture.scts([0, 1]))
        expect(try verdicts(s, leaf: leaf, tlsSCTs: list), ios: "accept", chrome: "accept", android: "accept")
    }

    func testAPrivateRootIsExempt() throws {
        let s = try Setup(publicRoots: false)
        expect(try verdicts(s, leaf: try s.fixture.plainLeaf()), ios: "accept", chrome: "accept", android: "accept")
    }

    func testAStaleChromeListStopsChromeAndAndroidButNotApple() throws {
        let s = try Setup(chromeListAge: 80 * 86_400)
        expect(try verdicts(s, leaf: try s.fixture.plainLeaf()), ios: "reject", chrome: "accept", android: "accept")
        let check = try PinguardCLI.run(["check-config", s.config])
        XCTAssertEqual(check.status, 0, "\(check)")
        XCTAssertTrue(check.stderr.contains("pinguard: warning: the chrome CT log list (\(s.folder)/chrome.json, "), check.stderr)
        XCTAssertTrue(check.stderr.contains(") is 80 days old: Chrome and Android stop enforcing CT after 70 days"), check.stderr)
    }
}
