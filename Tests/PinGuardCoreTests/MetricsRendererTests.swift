import Foundation
import XCTest
@testable import PinGuardCore
import PinGuardTestSupport


/// The /metrics exposition (docs/reference.md, Metrics) rendered from in-memory snapshots.
final class MetricsRendererTests: XCTestCase {
    typealias F = ResultFixtures

    /// Every exported family (docs/reference.md, Metrics).
    static let families: [(String, String)] = [
        ("pinguard_probe_success", "gauge"), ("pinguard_probe_duration_seconds", "gauge"),
        ("pinguard_probe_timestamp_seconds", "gauge"), ("pinguard_tls_version_info", "gauge"),
        ("pinguard_chain_trusted", "gauge"), ("pinguard_cert_not_after_timestamp_seconds", "gauge"),
        ("pinguard_cert_not_before_timestamp_seconds", "gauge"), ("pinguard_cert_info", "gauge"),
        ("pinguard_chain_earliest_expiry_timestamp_seconds", "gauge"), ("pinguard_policy_accept", "gauge"),
        ("pinguard_policy_decision_info", "gauge"), ("pinguard_pin_matched", "gauge"),
        ("pinguard_pin_horizon_timestamp_seconds", "gauge"), ("pinguard_reserve_pins", "gauge"),
        ("pinguard_pin_set_expiry_timestamp_seconds", "gauge"),
        ("pinguard_mtls_client_certificate_requested", "gauge"), ("pinguard_mtls_client_certificate_presented", "gauge"),
        ("pinguard_client_certificate_not_after_timestamp_seconds", "gauge"),
        ("pinguard_next_renewal_timestamp_seconds", "gauge"), ("pinguard_ari_window_start_timestamp_seconds", "gauge"),
        ("pinguard_ari_window_end_timestamp_seconds", "gauge"), ("pinguard_renewal_reject_ratio", "gauge"),
        ("pinguard_pin_breakage_timestamp_seconds", "gauge"), ("pinguard_renewal_forecast_info", "gauge"),
        ("pinguard_tls_cipher_info", "gauge"), ("pinguard_tls_group_info", "gauge"), ("pinguard_ct_scts", "gauge"),
        ("pinguard_ct_compliant", "gauge"), ("pinguard_situation_info", "gauge"), ("pinguard_situation_due_timestamp_seconds", "gauge"),
        ("pinguard_situation_words_info", "gauge"), ("pinguard_shard_index", "gauge"), ("pinguard_shard_total", "gauge"), ("pinguard_ct_log_list_timestamp_seconds", "gauge"),
        ("pinguard_certificate_revoked", "gauge"), ("pinguard_crl_next_update_timestamp_seconds", "gauge"), ("pinguard_crl_fetch_success", "gauge"),
        ("pinguard_renewals_observed_total", "counter"), ("pinguard_last_renewal_timestamp_seconds", "gauge"),
        ("pinguard_last_renewal_key_reused", "gauge"), ("pinguard_last_renewal_issuer_changed", "gauge"),
        ("pinguard_leaf_key_first_seen_timestamp_seconds", "gauge"), ("pinguard_state_writable", "gauge"), ("pinguard_backup_pin_coverage_ratio", "gauge"),
        ("pinguard_policy_bundle_valid", "gauge"), ("pinguard_policy_bundle_info", "gauge"),
        ("pinguard_policy_lint_findings", "gauge"), ("pinguard_build_info", "gauge"),
        ("pinguard_config_last_reload_successful", "gauge"), ("pinguard_config_last_reload_success_timestamp_seconds", "gauge"),
        ("pinguard_targets", "gauge"), ("pinguard_probes_total", "counter"), ("pinguard_probe_failures_total", "counter"),
        ("pinguard_round_duration_seconds", "gauge"), ("pinguard_round_timestamp_seconds", "gauge"),
        ("pinguard_journal_write_failures_total", "counter"), ("pinguard_round_lateness_seconds", "gauge"), ("pinguard_round_interval_seconds", "gauge"),
        ("process_cpu_seconds_total", "counter"), ("process_open_fds", "gauge"), ("process_max_fds", "gauge"),
        ("process_virtual_memory_bytes", "gauge"), ("process_resident_memory_bytes", "gauge"),
        ("process_start_time_seconds", "gauge"), ("process_threads", "gauge"),
("pinguard_file_success", "gauge"), ("pinguard_file_chain_trusted", "gauge"), ("pinguard_file_cert_not_after_timestamp_seconds", "gauge"), ("pinguard_file_chain_earliest_expiry_timestamp_seconds", "gauge"), ("pinguard_file_policy_accept", "gauge"), ("pinguard_file_pin_horizon_timestamp_seconds", "gauge"), ("pinguard_file_reserve_pins", "gauge"),
        ("pinguard_target_info", "gauge"), ("pinguard_target_addresses", "gauge"), ("pinguard_target_addresses_skipped", "gauge"),
        ("pinguard_target_distinct_chains", "gauge"), ("pinguard_address_policy_accept", "gauge"),
        ("pinguard_chain_cert_info", "gauge"), ("pinguard_ca_cert_info", "gauge"),
        ("pinguard_ca_cert_not_after_timestamp_seconds", "gauge"), ("pinguard_ca_cert_not_before_timestamp_seconds", "gauge"),
    ]

    func render(_ results: [TargetResult], configure: (inout MetricsSnapshot) -> Void = { _ in }) -> String {
        var s = MetricsSnapshot()
        s.results = results
        s.targets = results.count
        s.version = "1.2.3"
        s.openSSLVersion = "OpenSSL 3.0.0"
        configure(&s)
        return String(decoding: MetricsRenderer.render(s), as: UTF8.self)
    }

    func testEveryFamilyHasHelpAndTypeEvenWithoutSeries() {
        for text in [render([]), render([F.result(F.target("a"), F.facts(), [F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin]))])])])] {
            let lines = text.split(separator: "\n").map(String.init)
            for (name, type) in Self.families {
                let help = lines.indices.filter { lines[$0].hasPrefix("# HELP \(name) ") }
                XCTAssertEqual(help.count, 1, name)
                guard let i = help.first else { continue }
                XCTAssertEqual(lines[i + 1], "# TYPE \(name) \(type)", "TYPE follows HELP for \(name)")
                XCTAssertGreaterThan(lines[i].count, "# HELP \(name) ".count + 10, "\(name) has a real help text")
            }
            let helped = lines.filter { $0.hasPrefix("# HELP ") }.count
            XCTAssertEqual(helped, Self.families.count, "no family beyond those listed in docs/reference.md, Metrics")
            // Every sample belongs to the family announced last.
            var current = ""
            for line in lines {
                if line.hasPrefix("# HELP ") { current = String(line.dropFirst(7).prefix { $0 != " " }); continue }
                if line.hasPrefix("#") { continue }
                XCTAssertEqual(String(line.prefix { $0 != "{" && $0 != " " }), current, line)
            }
        }
        XCTAssertEqual(MetricsRenderer.contentType, "text/plain; version=0.0.4; charset=utf-8")
    }

    func testHelpTextsSayValuesComeFromTheLatestProbe() throws {
        let text = render([])
        for name in ["pinguard_probe_success", "pinguard_chain_trusted", "pinguard_policy_accept", "pinguard_pin_matched",
                     "pinguard_cert_info", "pinguard_reserve_pins"] {
            let help = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("# HELP \(name) ") })
            XCTAssertTrue(help.contains("latest scheduled probe"), String(help))
        }
        let horizon = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("# HELP pinguard_pin_horizon_timestamp_seconds ") })
        XCTAssertTrue(horizon.contains("Conservative for spki pins"), "the help says the horizon is conservative (docs/reference.md, Evaluation)")
    }

    func testLabelValuesAreEscaped() throws {
        let subject = "CN=a \"quoted\" name\\with backslash\nand newline"
        let facts = F.facts(leafSubject: subject)
        let text = render([F.result(F.target("t\"1\\"), facts, [])])
        let expected = #"subject="CN=a \"quoted\" name\\with backslash\nand newline""#
        XCTAssertTrue(text.contains(expected), text)
        XCTAssertTrue(text.contains(#"pinguard_probe_success{target="t\"1\\",address="127.0.0.1:443"} 1"#), text)
        // Every line is one sample or comment: the newline did not break a line.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            XCTAssertNotNil(ExpositionSample(line), "does not parse: \(line)")
        }
        let leaf = try XCTUnwrap(samples(text, "pinguard_cert_info").first { $0.labels["depth"] == "0" })
        XCTAssertEqual(leaf.labels["subject"], subject, "unescaping gives the subject back")
        XCTAssertEqual(leaf.labels["target"], "t\"1\\")
    }

    func testControlBytesFromAServerNeverReachALabelRaw() throws {
        let subject = "CN=evil\r\u{0}\u{1B}[31m\u{7F}end"
        let text = render([F.result(F.target("t"), F.facts(leafSubject: subject), [])])
        XCTAssertFalse(text.utf8.contains { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }, "no raw control byte in the exposition")
        let leaf = try XCTUnwrap(samples(text, "pinguard_cert_info").first { $0.labels["depth"] == "0" })
        XCTAssertEqual(leaf.labels["subject"], "CN=evil\u{FFFD}\u{FFFD}\u{FFFD}[31m\u{FFFD}end")
    }

    func testCertificateDataIsKeptWhenVerificationFails() throws {
        let set = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
        let text = render([F.result(F.target("t"), F.facts(trusted: false), [set])])
        XCTAssertEqual(value(text, "pinguard_chain_trusted", ["target": "t"]), 0)
        let certs = samples(text, "pinguard_cert_info")
        XCTAssertEqual(certs.map { $0.labels["depth"] }, ["0"], "the leaf as served")
        XCTAssertEqual(samples(text, "pinguard_chain_cert_info").map { $0.labels["depth"] }, ["1"], "the chain as served")
        XCTAssertEqual((certs + samples(text, "pinguard_chain_cert_info")).map { $0.labels["source"] }, ["served", "served"])
        XCTAssertEqual(certs.first?.labels["spki_sha256"], F.h(1))
        XCTAssertEqual(certs.first?.labels["cert_sha256"], F.h(11))
        XCTAssertEqual(certs.first?.labels["serial"], "0B")
        XCTAssertEqual(certs.first?.labels["issuer"], "CN=cert 1")
        XCTAssertEqual(value(text, "pinguard_cert_not_after_timestamp_seconds", ["target": "t", "depth": "0"]), F.day(90).timeIntervalSince1970)
        let intermediate = try XCTUnwrap(samples(text, "pinguard_chain_cert_info").first?.labels["cert_sha256"])
        XCTAssertEqual(value(text, "pinguard_ca_cert_not_before_timestamp_seconds", ["cert_sha256": intermediate]), F.day(-30).timeIntervalSince1970)
        XCTAssertEqual(value(text, "pinguard_chain_earliest_expiry_timestamp_seconds", ["target": "t"]), F.day(90).timeIntervalSince1970)
        XCTAssertEqual(value(text, "pinguard_policy_accept", ["target": "t"]), 0)
        XCTAssertEqual(labels(text, "pinguard_policy_decision_info", "reason"), ["system_trust_failed"])
        XCTAssertEqual(value(text, "pinguard_pin_matched", ["pin": F.h(1)]), 1, "pins are still matched against the served chain")

        let trusted = render([F.result(F.target("t"), F.facts(), [set])])
        XCTAssertEqual((samples(trusted, "pinguard_cert_info") + samples(trusted, "pinguard_chain_cert_info")).map { $0.labels["source"] },
                       ["served", "served", "store"])
        XCTAssertNil(value(trusted, "pinguard_chain_trusted", ["target": "t"]), "a trusted chain is the default: not written")
        XCTAssertEqual(value(trusted, "pinguard_chain_earliest_expiry_timestamp_seconds", ["target": "t"]), F.day(90).timeIntervalSince1970)
    }

    func testOnlyTargetsInTheSnapshotHaveSeries() {
        let set = F.set("app", [("**.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
        let a = F.result(F.target("a"), F.facts(), [set])
        let text = render([a]) { $0.targets = 3 }
        XCTAssertEqual(value(text, "pinguard_targets", [:]), 3, "configured targets")
        let targets = Set(allSamples(text).compactMap { $0.labels["target"] })
        XCTAssertEqual(targets, ["a"], "targets without a result (not probed yet, or removed) have no series")
    }

    func testAcceptRejectAndDecisionReasons() {
        let accepts = F.set("accepts", [("api.example.com", HostPolicy(pins: [F.leafPin]))])
        let rejects = F.set("rejects", [("api.example.com", HostPolicy(pins: [F.reservePin]))])
        let permissive = F.set("permissive", [("api.example.com", HostPolicy(pins: [F.reservePin], failStrategy: .permissive))])
        let text = render([F.result(F.target("t"), F.facts(), [accepts, rejects, permissive])])
        XCTAssertEqual(value(text, "pinguard_policy_accept", ["policy_set": "accepts", "environment": "prod"]), 1)
        XCTAssertEqual(value(text, "pinguard_policy_accept", ["policy_set": "rejects", "environment": "prod"]), 0)
        XCTAssertEqual(value(text, "pinguard_policy_accept", ["policy_set": "permissive"]), 1)
        XCTAssertEqual(value(text, "pinguard_policy_decision_info", ["policy_set": "accepts", "reason": "pin_match"]), 1)
        XCTAssertEqual(value(text, "pinguard_policy_decision_info", ["policy_set": "rejects", "reason": "pin_mismatch"]), 1)
        XCTAssertEqual(value(text, "pinguard_policy_decision_info", ["policy_set": "permissive", "reason": "pin_mismatch_permissive"]), 1)
        XCTAssertEqual(samples(text, "pinguard_policy_decision_info").count, 3, "one reason per target and set")
        XCTAssertEqual(samples(text, "pinguard_policy_accept").first?.labels.keys.sorted(), ["environment", "policy_set", "target"])
    }

    func testPinMatchedForEveryConfiguredPin() throws {
        let intermediateSPKI = Pin(type: .spki, hash: F.h(2), role: .backup, scope: .intermediate)
        let rootCert = Pin(type: .certificate, hash: F.h(13), role: .backup, scope: .root)
        let leafAsCA = Pin(type: .ca, hash: F.h(1), role: .backup)  // a ca pin never matches the leaf
        let pins = [F.leafPin, F.reservePin, intermediateSPKI, rootCert, leafAsCA, F.leafPin]
        let set = F.set("app", [("api.example.com", HostPolicy(pins: pins))])
        let text = render([F.result(F.target("t"), F.facts(), [set])])
        let found = samples(text, "pinguard_pin_matched")
        XCTAssertEqual(found.count, 5, "one series per distinct configured pin: \(found)")
        func v(_ p: Pin) -> Double? {
            value(text, "pinguard_pin_matched", ["pin": p.hash, "type": p.type.rawValue, "role": p.role.rawValue, "scope": p.scope.rawValue])
        }
        XCTAssertEqual(v(F.leafPin), 1)
        XCTAssertEqual(v(F.reservePin), 0)
        XCTAssertEqual(v(intermediateSPKI), 1)
        XCTAssertEqual(v(rootCert), 1, "the trust anchor from the store is matched")
        XCTAssertEqual(v(leafAsCA), 0)
        XCTAssertEqual(found.first?.labels.keys.sorted(), ["pin", "policy_set", "role", "scope", "target", "type"])
        XCTAssertEqual(value(text, "pinguard_reserve_pins", ["target": "t", "policy_set": "app"]), 1)
        XCTAssertEqual(value(text, "pinguard_pin_horizon_timestamp_seconds", ["target": "t", "policy_set": "app"]), F.day(3000).timeIntervalSince1970,
                       "latest notAfter among matched certificates")
        XCTAssertTrue(samples(text, "pinguard_pin_set_expiry_timestamp_seconds").isEmpty, "no expires, no series")
    }

    func testPinSetExpiryAndHorizonWhenTheyApply() {
        let expires = F.day(200)
        let set = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin], expires: expires)),
                               ("other.example.com", HostPolicy(pins: [F.reservePin]))])
        let text = render([F.result(F.target("a"), F.facts(), [set]),
                           F.result(F.target("b", host: "other.example.com"), F.facts(host: "other.example.com"), [set])])
        XCTAssertEqual(value(text, "pinguard_pin_set_expiry_timestamp_seconds", ["target": "a", "policy_set": "app"]), expires.timeIntervalSince1970)
        XCTAssertEqual(samples(text, "pinguard_pin_set_expiry_timestamp_seconds").count, 1)
        XCTAssertEqual(value(text, "pinguard_pin_horizon_timestamp_seconds", ["target": "a"]), F.day(90).timeIntervalSince1970)
        XCTAssertTrue(samples(text, "pinguard_pin_horizon_timestamp_seconds", ["target": "b"]).isEmpty, "no pin matches, no horizon")
    }

    func testAFailedProbeHasAReasonButNoVerdict() {
        let set = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
        let text = render([F.result(F.target("t"), F.facts(error: "connect to 127.0.0.1:443: Connection refused"), [set])]) {
            $0.probesTotal = 1
            $0.probeFailuresTotal = 1
        }
        XCTAssertEqual(value(text, "pinguard_probe_success", ["target": "t"]), 0)
        XCTAssertTrue(samples(text, "pinguard_policy_accept").isEmpty, "probe_failed has no pinguard_policy_accept")
        XCTAssertEqual(labels(text, "pinguard_policy_decision_info", "reason"), ["probe_failed"])
        for family in ["pinguard_chain_trusted", "pinguard_tls_version_info", "pinguard_cert_info", "pinguard_pin_matched",
                       "pinguard_reserve_pins", "pinguard_pin_horizon_timestamp_seconds",
                       "pinguard_chain_earliest_expiry_timestamp_seconds", "pinguard_backup_pin_coverage_ratio"] {
            XCTAssertTrue(samples(text, family).isEmpty, "\(family) for a failed probe")
        }
        XCTAssertEqual(value(text, "pinguard_probe_duration_seconds", ["target": "t"]), 0.25)
        XCTAssertEqual(value(text, "pinguard_probes_total", [:]), 1)
        XCTAssertEqual(value(text, "pinguard_probe_failures_total", [:]), 1)
    }

    func testBackupPinCoverageRatio() {
        let covered = HostPolicy(pins: [F.leafPin, F.reservePin])
        let bare = HostPolicy(pins: [F.leafPin])
        let app = F.set("app", [("a.example.com", covered), ("b.example.com", bare), ("c.example.com", covered),
                                ("d.example.com", covered)])
        let staging = F.set("app-staging", environment: "staging", [("**.example.com", bare)])
        let results = [
            F.result(F.target("a", host: "a.example.com"), F.facts(host: "a.example.com"), [app]),
            F.result(F.target("b", host: "b.example.com"), F.facts(host: "b.example.com"), [app]),
            F.result(F.target("c", host: "c.example.com"), F.facts(host: "c.example.com", trusted: false), [app]),
            // Not evaluated: the probe failed.
            F.result(F.target("d", host: "d.example.com"), F.facts(host: "d.example.com", error: "timeout"), [app]),
            // Not covered by `app` at all.
            F.result(F.target("e", host: "e.example.com"), F.facts(host: "e.example.com"), [app]),
            F.result(F.target("s", host: "s.example.com", environment: "staging"), F.facts(host: "s.example.com"), [app, staging]),
        ]
        let text = render(results)
        let ratio = value(text, "pinguard_backup_pin_coverage_ratio", ["policy_set": "app", "environment": "prod"]) ?? -1
        XCTAssertEqual(ratio, 2.0 / 3.0, accuracy: 1e-12, "a and c of the evaluated a, b, c")
        XCTAssertEqual(value(text, "pinguard_backup_pin_coverage_ratio", ["policy_set": "app-staging", "environment": "staging"]), 0)
        XCTAssertEqual(samples(text, "pinguard_backup_pin_coverage_ratio").count, 2)
        XCTAssertEqual(BackupPinCoverage.compute(results).map { "\($0.policySet)/\($0.environment) \($0.covered)/\($0.evaluated)" },
                       ["app/prod 2/3", "app-staging/staging 0/1"])
        XCTAssertNil(BackupPinCoverage(policySet: "x", environment: "prod", evaluated: 0, covered: 0).ratio)
    }

    func testServiceFamiliesAndValueFormatting() throws {
        let text = render([F.result(F.target("t"), F.facts(), [])]) {
            $0.lintFindings = [LintCount(policySet: "app", severity: "warning", count: 2)]
            $0.lastReloadSuccessful = false
            $0.lastReloadSuccess = F.now
            $0.probesTotal = 42
            $0.probeFailuresTotal = 3
            $0.journalFailuresTotal = 7
            $0.roundDuration = 1.5
            $0.roundTimestamp = F.day(1)
        }
        XCTAssertEqual(value(text, "pinguard_policy_lint_findings", ["policy_set": "app", "severity": "warning"]), 2)
        XCTAssertEqual(value(text, "pinguard_build_info", ["version": "1.2.3", "openssl_version": "OpenSSL 3.0.0"]), 1)
        XCTAssertTrue(text.contains("\npinguard_config_last_reload_successful 0\n"), "a label-less sample has no braces")
        XCTAssertTrue(text.contains("\npinguard_config_last_reload_success_timestamp_seconds 1800000000\n"), "whole numbers without a decimal point")
        XCTAssertTrue(text.contains("\npinguard_probes_total 42\n"))
        XCTAssertTrue(text.contains("\npinguard_probe_failures_total 3\n"))
        XCTAssertTrue(text.contains("\npinguard_journal_write_failures_total 7\n"))
        XCTAssertTrue(text.contains("\npinguard_round_duration_seconds 1.5\n"))
        XCTAssertTrue(text.contains("\npinguard_round_timestamp_seconds 1800086400\n"))
        XCTAssertEqual(value(text, "pinguard_tls_version_info", ["target": "t", "version": "TLSv1.3"]), 1)

        let fresh = render([]) { $0.lastReloadSuccess = nil; $0.roundDuration = nil; $0.roundTimestamp = nil }
        for family in ["pinguard_config_last_reload_success_timestamp_seconds", "pinguard_round_duration_seconds",
                       "pinguard_round_timestamp_seconds", "pinguard_policy_lint_findings"] {
            XCTAssertTrue(samples(fresh, family).isEmpty, "\(family) before anything happened")
        }
        XCTAssertTrue(fresh.hasSuffix("\n"))
        XCTAssertEqual(value(fresh, "pinguard_config_last_reload_successful", [:]), 1)
    }
}
