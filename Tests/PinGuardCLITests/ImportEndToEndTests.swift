import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// `pinguard import` end to end, per format: a source file pinning the real keys of the test PKI is imported by
/// the built binary, the YAML is linted, and `pinguard probe --json` against live loopback servers must reach
/// the decision the shipping client would reach. Then every committed and generated import must pass
/// `pinguard check-config`.
final class ImportEndToEndTests: XCTestCase {
    // MARK: TrustKit

    func testTrustKitInfoPlistSubdomainsExclusionAndReportOnly() throws {
        let w = try ImportWorld.shared()
        let k = w.pins
        let imp = try w.importSource("trustkit", ImportSources.trustKitPlist(k), as: "trustkit/Info.plist", name: "e2e-trustkit")
        assertImported(imp, findings: [
            ("<key>TSKReportUris</key>",
             "info: TSKConfiguration.TSKPinnedDomains[\"pinguard.test\"].TSKReportUris: pin failure reporting is not modelled; ignored"),
        ])
        let yaml = try String(contentsOfFile: imp.yaml, encoding: .utf8)
        XCTAssertTrue(yaml.contains("version: \"1.4.2\""), yaml)

        try assertLint(imp.yaml, status: 0, [
            "warning no-backup-role **.pinguard.test",
            "info no-pins expiring.pinguard.test",
            "warning prod-system-trust-fallback backup.pinguard.test",
            "warning no-backup-role backup.pinguard.test",
            "warning prod-system-trust-fallback otherca.pinguard.test",
            "warning no-backup-role otherca.pinguard.test",
            "warning no-backup-role p384.pinguard.test",
            "info shadowed-pattern p384.pinguard.test",
        ])

        // TSKIncludeSubdomains: the subdomain's leaf key is pinned through **.pinguard.test.
        let valid = try decide(w, "valid.pinguard.test", imp, "accept", "pin_match", pattern: "**.pinguard.test")
        XCTAssertEqual(matchedHashes(valid), [k.valid])
        XCTAssertEqual(reserveHashes(valid), [k.reserve])
        // A rotated key is in neither pin.
        try decide(w, "rotated.pinguard.test", imp, "reject", "pin_mismatch", pattern: "**.pinguard.test")
        // TSKEnforcePinning false: the mismatch is reported, the system-trusted chain accepted ...
        try decide(w, "backup.pinguard.test", imp, "accept", "pin_mismatch_allowed_by_fallback", pattern: "backup.pinguard.test")
        // ... but a chain failing system trust is still blocked (report-only is not permissive).
        let other = try decide(w, "otherca.pinguard.test", imp, "reject", "system_trust_failed", pattern: "otherca.pinguard.test")
        XCTAssertEqual(other.trusted, false)
        // An excluded subdomain is not pinned: the OS default evaluation decides.
        try decide(w, "expiring.pinguard.test", imp, "accept", "pin_set_empty", pattern: "expiring.pinguard.test")
        // TrustKit hashes every certificate of the chain: a pin on the intermediate matches at depth 1.
        let p384 = try decide(w, "p384.pinguard.test", imp, "accept", "pin_match", pattern: "p384.pinguard.test")
        XCTAssertEqual(matchedHashes(p384), [k.intermediate])
        XCTAssertEqual((p384.evaluation["matched_pins"] as? [[String: Any]])?.first?["depths"] as? [Int], [1])
    }

    func testTrustKitJSONImportsLikeTheInfoPlist() throws {
        let w = try ImportWorld.shared()
        let plist = try w.importSource("trustkit", ImportSources.trustKitPlist(w.pins), as: "trustkit-json/Info.plist",
                                       name: "e2e-trustkit-json")
        let json = try w.importSource("trustkit", ImportSources.trustKitJSON(w.pins), as: "trustkit-json/trustkit.json",
                                      name: "e2e-trustkit-json")
        assertImported(json, findings: [
            ("\"TSKReportUris\"", "info: TSKPinnedDomains[\"pinguard.test\"].TSKReportUris: pin failure reporting is not modelled"),
        ])
        var fromPlist = try PolicyParser.parse(try String(contentsOfFile: plist.yaml, encoding: .utf8), file: plist.yaml)
        let fromJSON = try PolicyParser.parse(try String(contentsOfFile: json.yaml, encoding: .utf8), file: json.yaml)
        XCTAssertEqual(fromPlist.version, "1.4.2")
        XCTAssertNil(fromJSON.version)
        fromPlist.version = nil
        XCTAssertEqual(fromPlist.strippingSourcePositions(), fromJSON.strippingSourcePositions())
        try decide(w, "valid.pinguard.test", json, "accept", "pin_match", pattern: "**.pinguard.test")
    }

    // MARK: NSPinnedDomains

    func testNSPinnedDomainsRequiresAMatchInBothTheLeafAndTheCAList() throws {
        let w = try ImportWorld.shared()
        let k = w.pins
        let imp = try w.importSource("nspinneddomains", ImportSources.nsPinnedDomainsPlist(k), as: "ats/Info.plist",
                                     name: "e2e-nspinneddomains")
        assertImported(imp, findings: [])
        let yaml = try String(contentsOfFile: imp.yaml, encoding: .utf8)
        XCTAssertEqual(yaml.components(separatedBy: "match: each_group").count - 1, 1, yaml)

        try assertLint(imp.yaml, status: 0, [
            "warning no-backup-role **.pinguard.test",
            "warning ca-pin **.pinguard.test",
            "warning ca-pin **.pinguard.test",
            "warning no-backup-role p384.pinguard.test",
            "warning ca-pin p384.pinguard.test",
            "warning ca-pin p384.pinguard.test",
            "info shadowed-pattern p384.pinguard.test",
        ])

        // Both roots trusted, so `otherca` passes system trust and only the pins decide.
        let both = w.pki.caBundleBothRoots
        // Leaf key and intermediate both pinned: accepted.
        let valid = try decide(w, "valid.pinguard.test", imp, "accept", "pin_match", pattern: "**.pinguard.test", caFile: both)
        XCTAssertEqual(Set(matchedHashes(valid)), [k.valid, k.intermediate, k.root])
        // The CA matches, the leaf key does not: ATS rejects.
        try decide(w, "rotated.pinguard.test", imp, "reject", "pin_mismatch", pattern: "**.pinguard.test", caFile: both)
        // The leaf key is pinned, its CA (another root's intermediate) is not: ATS rejects too.
        let other = try decide(w, "otherca.pinguard.test", imp, "reject", "pin_mismatch", pattern: "**.pinguard.test", caFile: both)
        XCTAssertEqual(other.trusted, true)
        XCTAssertEqual(matchedHashes(other), [k.otherca])
        // CA identities only: any leaf the pinned CA issued.
        let p384 = try decide(w, "p384.pinguard.test", imp, "accept", "pin_match", pattern: "p384.pinguard.test", caFile: both)
        XCTAssertEqual(Set(matchedHashes(p384)), [k.intermediate, k.root])
    }

    // MARK: Android Network Security Config

    func testAndroidNSCInheritsNestedPinSetsAndStopsEnforcingExpiredOnes() throws {
        let w = try ImportWorld.shared()
        let k = w.pins
        let text = ImportSources.androidNSC(k)
        let imp = try w.importSource("android-nsc", text, as: "android/res/xml/network_security_config.xml",
                                     name: "e2e-android-nsc")
        assertImported(imp, findings: [
            ("<debug-overrides>", "warning: <debug-overrides> applies to debuggable builds only (trusts user"),
            ("<base-config", "info: no <certificateTransparency> in <base-config>: Android 16 does not check CT"),
        ])
        let yaml = try String(contentsOfFile: imp.yaml, encoding: .utf8)
        XCTAssertTrue(yaml.contains("(inherited from an enclosing domain-config)"), yaml)
        XCTAssertTrue(yaml.contains("expires: 2020-01-01T00:00:00Z"), yaml)

        try assertLint(imp.yaml, status: 1, [
            "warning no-backup-role valid.pinguard.test",
            "warning no-backup-role rotated.pinguard.test",
            "warning no-backup-role backup.pinguard.test",
            "error pin-set-expired expiring.pinguard.test",
            "warning no-backup-role expiring.pinguard.test",
        ])

        try decide(w, "valid.pinguard.test", imp, "accept", "pin_match", pattern: "valid.pinguard.test")
        // The nested domain-config without a pin-set inherits its parent's: the rotated key is refused.
        try decide(w, "rotated.pinguard.test", imp, "reject", "pin_mismatch", pattern: "rotated.pinguard.test")
        // The nested domain-config with its own pin-set: the spare key the backup leaf runs on.
        let backup = try decide(w, "backup.pinguard.test", imp, "accept", "pin_match", pattern: "backup.pinguard.test")
        XCTAssertEqual(matchedHashes(backup), [k.backupSpare])
        // expiration in the past: Android no longer enforces the pins (the expiring leaf's key is not among them).
        try decide(w, "expiring.pinguard.test", imp, "accept", "pin_set_expired", pattern: "expiring.pinguard.test")
        // No domain-config: not pinned, default trust handling.
        try decide(w, "p384.pinguard.test", imp, "accept", "policy_missing", pattern: nil)
    }

    // MARK: OkHttp

    func testOkHttpOneLabelAndAnyDepthWildcards() throws {
        let w = try ImportWorld.shared()
        let k = w.pins
        let imp = try w.importSource("okhttp", ImportSources.okHttpKotlin(k), as: "okhttp/PinnedClient.kt", name: "e2e-okhttp")
        assertImported(imp, findings: [])

        try assertLint(imp.yaml, status: 0, [
            "warning no-backup-role *.pinguard.test",
            "warning no-backup-role **.eu.pinguard.test",
            "warning no-backup-role eu.pinguard.test",
        ])

        try decide(w, "valid.pinguard.test", imp, "accept", "pin_match", pattern: "*.pinguard.test")
        try decide(w, "rotated.pinguard.test", imp, "reject", "pin_mismatch", pattern: "*.pinguard.test")
        // Two labels below: only **.eu.pinguard.test applies.
        let deep = try decide(w, "api.eu.pinguard.test", imp, "accept", "pin_match", pattern: "**.eu.pinguard.test")
        XCTAssertEqual(matchedHashes(deep), [k.deep])
        // `*.` is exactly one label: api.us.pinguard.test is not pinned at all.
        try decide(w, "api.us.pinguard.test", imp, "accept", "policy_missing", pattern: nil)
        // eu.pinguard.test matches both patterns and OkHttp accepts the pins of either: the deep key matches
        // although `*.pinguard.test` alone would refuse it.
        let eu = try decide(w, "eu.pinguard.test", imp, "accept", "pin_match", pattern: "eu.pinguard.test")
        XCTAssertEqual(matchedHashes(eu), [k.deep])
        XCTAssertEqual(Set(reserveHashes(eu)), [k.valid, k.reserve])
    }

    // MARK: HPKP

    func testHPKPEnforcedIncludeSubDomainsAndReportOnly() throws {
        let w = try ImportWorld.shared()
        let k = w.pins
        let imp = try w.importSource("hpkp", ImportSources.hpkpHeaders(k), as: "hpkp/headers.txt", name: "e2e-hpkp")
        assertImported(imp, findings: [
            ("Public-Key-Pins: pin-sha256=", "info: max-age=5184000 (60d) is how long a UA remembers the pins"),
            ("report-uri=", "info: report-uri is not modelled; ignored"),
            ("< Public-Key-Pins-Report-Only", "info: max-age=600 (10m) is how long a UA remembers the pins"),
        ])

        try assertLint(imp.yaml, status: 0, [
            "warning no-backup-role valid.pinguard.test",
            "info shadowed-pattern valid.pinguard.test",
            "warning no-backup-role rotated.pinguard.test",
            "info shadowed-pattern rotated.pinguard.test",
            "warning no-backup-role **.pinguard.test",
            "warning prod-system-trust-fallback backup.pinguard.test",
            "warning no-backup-role backup.pinguard.test",
            "info shadowed-pattern backup.pinguard.test",
            "warning prod-system-trust-fallback otherca.pinguard.test",
            "warning no-backup-role otherca.pinguard.test",
            "info shadowed-pattern otherca.pinguard.test",
        ])

        try decide(w, "valid.pinguard.test", imp, "accept", "pin_match", pattern: "valid.pinguard.test")
        try decide(w, "rotated.pinguard.test", imp, "reject", "pin_mismatch", pattern: "rotated.pinguard.test")
        // includeSubDomains on pinguard.test covers the expiring host (no header of its own).
        let expiring = try decide(w, "expiring.pinguard.test", imp, "accept", "pin_match", pattern: "**.pinguard.test")
        XCTAssertEqual(matchedHashes(expiring), [k.expiring])
        // Report-Only: a mismatch on a validated chain is only reported ...
        try decide(w, "backup.pinguard.test", imp, "accept", "pin_mismatch_allowed_by_fallback", pattern: "backup.pinguard.test")
        // ... a chain failing validation fails as any TLS connection would.
        try decide(w, "otherca.pinguard.test", imp, "reject", "system_trust_failed", pattern: "otherca.pinguard.test")
    }

    // MARK: check-config

    func testCheckConfigLoadsEveryCommittedAndGeneratedImport() throws {
        let w = try ImportWorld.shared()
        let k = w.pins
        let sources: [(format: String, text: String, file: String)] = [
            ("trustkit", ImportSources.trustKitPlist(k), "Info.plist"),
            ("trustkit", ImportSources.trustKitJSON(k), "trustkit.json"),
            ("nspinneddomains", ImportSources.nsPinnedDomainsPlist(k), "ats-Info.plist"),
            ("android-nsc", ImportSources.androidNSC(k), "network_security_config.xml"),
            ("okhttp", ImportSources.okHttpKotlin(k), "PinnedClient.kt"),
            ("hpkp", ImportSources.hpkpHeaders(k), "headers.txt"),
        ]
        var generated: [String] = []
        for (i, s) in sources.enumerated() {
            let name = "cc-\(i)-\(s.format)"
            let imp = try w.importSource(s.format, s.text, as: "check-config/src/\(s.file)", name: name)
            XCTAssertEqual(imp.result.status, 0, "\(imp.result)")
            try PolicyYAML.write(try String(contentsOfFile: imp.yaml, encoding: .utf8), to: w.directory,
                                 as: "check-config/policies/\(name).yml")
            generated.append(name)
        }
        let committedGlob = Repository.root.appendingPathComponent("policies").path + "/imported-*.yml"
        let committed = try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("policies").path)
            .filter { $0.hasPrefix("imported-") && $0.hasSuffix(".yml") }
        XCTAssertEqual(committed.count, 5, "one committed import per format: \(committed)")
        let config = """
        interval: 5m
        timeout: 5s
        trust: {ca_file: "\(w.pki.caBundle)"}
        policies:
          - "\(committedGlob)"
          - "policies/*.yml"
        targets:
          - host: valid.pinguard.test
            port: \(w.farm.port)
            connect: 127.0.0.1
            policy_sets: [\(generated.joined(separator: ", "))]

        """
        let path = try PolicyYAML.write(config, to: w.directory, as: "check-config/pinguard.yml")
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 0, "\(r)")
        // The imported HPKP set is Chrome's: the bundled Chrome log list being stale is the one remark expected.
        let remarks = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("pinguard: warning: the chrome CT log list (bundled, ") }
        XCTAssertEqual(remarks, [], "\(r)")
        XCTAssertTrue(r.stdout.contains("ok: 1 targets, \(committed.count + generated.count) policy sets"), "\(r)")
        for name in generated { XCTAssertTrue(r.stdout.contains(name), "\(name) not loaded: \(r)") }
        for file in committed {
            let text = try String(contentsOfFile: Repository.root.appendingPathComponent("policies/\(file)").path, encoding: .utf8)
            let set = try PolicyParser.parse(text, file: file)
            XCTAssertTrue(r.stdout.contains(set.name), "\(file) (\(set.name)) not loaded: \(r)")
        }
    }
}
