import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardCoreTestSupport

/// Target files in Prometheus file_sd format (`target_files`, docs/reference.md, Configuration).
final class TargetFileParserTests: XCTestCase {
    func testJSONAndYAMLGroupsWithLabels() throws {
        var defaults = ServiceConfig()
        defaults.environment = "staging"
        defaults.maxAddresses = 4
        let json = """
        [{"targets": ["api.example.com:8443", "[2001:db8::1]"], "labels": {"team": "payments", "__meta_x": "dropped"}},
         {"targets": ["www.example.com"]}]
        """
        let t = try TargetFileParser.parse(json, file: "t.json", defaults: defaults)
        XCTAssertEqual(t.map(\.name), ["api.example.com:8443", "[2001:db8::1]:443", "www.example.com:443"])
        XCTAssertEqual(t[0].labels, ["team": "payments"], "meta labels (__*) are dropped")
        XCTAssertEqual(t[2].labels, [:])
        XCTAssertEqual(t[0].environment, "staging")
        XCTAssertEqual(t[0].maxAddresses, 4)
        let yaml = "- targets: [api.example.com]\n  labels: {region: eu}\n"
        XCTAssertEqual(try TargetFileParser.parse(yaml, file: "t.yml", defaults: defaults).first?.labels, ["region": "eu"])
        XCTAssertEqual(try TargetFileParser.parse("", file: "t.yml", defaults: defaults), [])
    }

    func testBadLabelsAndTargetsAreErrorsNamingTheLine() {
        let cases: [(String, String)] = [
            ("- targets: [a.example]\n  labels: {\"1x\": v}\n", "t.yml:2: [0].labels.1x: \"1x\" is not a label name ([a-zA-Z_][a-zA-Z0-9_]*)"),
            ("- targets: [a.example]\n  labels: {policy_set: v}\n",
             "t.yml:2: [0].labels.policy_set: label \"policy_set\" is one pinguard's series use; rename it"),
            ("- targets: [\"a.example:99999\"]\n", "t.yml:1: [0].targets[0]: a.example:99999: expected HOST[:PORT] (IPv6 as [::1]:443)"),
            ("- targets: [a.example]\n  hosts: [b]\n", "t.yml:2: [0].hosts: unknown key (known keys: labels, targets)"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try TargetFileParser.parse(text, file: "t.yml", defaults: ServiceConfig()), text) {
                XCTAssertEqual("\($0)", message)
            }
        }
    }

    func testInfoSeriesCarriesTheLabels() {
        var t = Target(host: "api.example.com", name: "api")
        t.labels = ["team": "pay\"ments", "region": "eu"]
        let r = TargetResult.evaluate(ProbeFacts(host: "api.example.com", port: 443, error: "timeout", finishedAt: ResultFixtures.now),
                                      target: t, sets: [], now: ResultFixtures.now)
        var s = MetricsSnapshot()
        s.results = [r]
        let text = String(decoding: MetricsRenderer.render(s), as: UTF8.self)
        XCTAssertTrue(text.contains(#"pinguard_target_info{target="api",region="eu",team="pay\"ments"} 1"#), text)
    }
}
