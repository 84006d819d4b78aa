import Foundation
import PinGuardTestSupport
import XCTest

/// /metrics of a real `pinguard serve` probing real TLS servers (docs/reference.md, Metrics).
final class ServeMetricsTests: XCTestCase {
    func testProbeAndTrustPerTarget() throws {
        let s = try RunningService.shared()
        let m = try s.serve.metrics()
        for name in s.targetNames where name != "down" {
            XCTAssertEqual(m.value("pinguard_probe_success", ["target": name]), 1, name)
            XCTAssertNotNil(m.value("pinguard_tls_version_info", ["target": name, "version": "TLSv1.3"]), name)
            XCTAssertGreaterThan(m.value("pinguard_probe_duration_seconds", ["target": name]) ?? 0, 0, name)
        }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "down"]), 0)
        XCTAssertTrue(m.samples("pinguard_tls_version_info", ["target": "down"]).isEmpty)
        XCTAssertTrue(m.samples("pinguard_chain_trusted", ["target": "down"]).isEmpty, "no chain, no trust verdict")
        XCTAssertTrue(m.samples("pinguard_cert_info", ["target": "down"]).isEmpty)

        // A trusted chain is not written: with probe_success 1, the absent series is 1.
        XCTAssertNil(m.value("pinguard_chain_trusted", ["target": "healthy"]))
        XCTAssertNil(m.value("pinguard_chain_trusted", ["target": "rotated"]), "trusted, yet a pinned client rejects")
        XCTAssertEqual(m.value("pinguard_chain_trusted", ["target": "uncovered"]), 0, "the default site's name does not match")
        let now = Date().timeIntervalSince1970
        for name in s.targetNames {
            let t = try XCTUnwrap(m.value("pinguard_probe_timestamp_seconds", ["target": name]), name)
            XCTAssertEqual(t, now, accuracy: 30, name)
        }
        XCTAssertEqual(m.value("pinguard_targets"), 6)
        XCTAssertGreaterThanOrEqual(m.value("pinguard_probes_total") ?? 0, 6)
        XCTAssertGreaterThanOrEqual(m.value("pinguard_probe_failures_total") ?? 0, 1)
        XCTAssertEqual(m.value("pinguard_config_last_reload_successful"), 1)
        XCTAssertEqual(m.value("pinguard_config_last_reload_success_timestamp_seconds") ?? 0, now, accuracy: 120)
        XCTAssertEqual(m.value("pinguard_journal_write_failures_total"), 0, "a journal that is off fails no write")
        XCTAssertNotNil(m.value("pinguard_round_duration_seconds"))
        XCTAssertNotNil(m.value("pinguard_build_info"))
    }

    func testCertificatesOfTheEvaluatedChain() throws {
        let s = try RunningService.shared()
        let m = try s.serve.metrics()
        // A trusted chain is evaluated with its trust anchor from the store.
        let healthy = m.samples("pinguard_cert_info", ["target": "healthy"])
        XCTAssertEqual(healthy.map { $0.labels["depth"] }, ["0"], "the leaf per address")
        XCTAssertEqual(healthy.first?.labels["source"], "served")
        XCTAssertEqual(healthy.first?.labels["spki_sha256"], s.world.validLeafPin)
        XCTAssertEqual(healthy.first?.labels["subject"], "CN=valid.pinguard.test")
        let cert = try OpenSSLTool.certSHA256(certificate: s.world.pki.certificate("valid"))
        XCTAssertEqual(healthy.first?.labels["cert_sha256"], cert)
        XCTAssertFalse(healthy.first?.labels["serial"]?.isEmpty ?? true)
        // Above the leaf: a link per address, each distinct certificate described once.
        let above = m.samples("pinguard_chain_cert_info", ["target": "healthy"]).sorted { $0.labels["depth"]! < $1.labels["depth"]! }
        XCTAssertEqual(above.map { $0.labels["source"] }, ["served", "store"])
        XCTAssertEqual(above.map { $0.labels["depth"] }, ["1", "2"])
        let described = { (link: ExpositionSample?) in m.samples("pinguard_ca_cert_info", ["cert_sha256": link?.labels["cert_sha256"] ?? "-"]) }
        XCTAssertEqual(described(above.last).map { $0.labels["subject"] }, ["CN=pinguard Test Root,O=pinguard test"])
        XCTAssertEqual(described(above.first).map { $0.labels["spki_sha256"] }, [s.world.intermediatePin])
        for sample in healthy + above { XCTAssertEqual(sample.value, 1) }

        // Certificate data is kept when verification fails: the chain as served.
        let uncovered = m.samples("pinguard_cert_info", ["target": "uncovered"]) + m.samples("pinguard_chain_cert_info", ["target": "uncovered"])
        XCTAssertEqual(uncovered.compactMap { $0.labels["source"] }, ["served", "served"])
        XCTAssertEqual(m.samples("pinguard_cert_not_after_timestamp_seconds", ["target": "uncovered"]).count, 1)

        let leafExpiry = try XCTUnwrap(m.value("pinguard_cert_not_after_timestamp_seconds", ["target": "expiring", "depth": "0"]))
        let days = (leafExpiry - Date().timeIntervalSince1970) / 86_400
        XCTAssertTrue((4...5.01).contains(days), "the expiring leaf ends in 5 days, got \(days)")
        XCTAssertEqual(m.value("pinguard_chain_earliest_expiry_timestamp_seconds", ["target": "expiring"]), leafExpiry)
        let notBefore = try XCTUnwrap(m.value("pinguard_cert_not_before_timestamp_seconds", ["target": "expiring", "depth": "0"]))
        XCTAssertLessThan(notBefore, leafExpiry)
    }

    func testClientDecisionsPinsAndCoverage() throws {
        let s = try RunningService.shared()
        let m = try s.serve.metrics()
        let w = s.world
        func accept(_ target: String, _ set: String) -> Double? {
            m.value("pinguard_policy_accept", ["target": target, "policy_set": set, "environment": "prod"])
        }
        func reasons(_ target: String, _ set: String) -> [String] {
            m.samples("pinguard_policy_decision_info", ["target": target, "policy_set": set, "environment": "prod"])
                .compactMap { $0.labels["reason"] }
        }
        XCTAssertEqual(accept("healthy", "ios-app"), 1)
        XCTAssertEqual(accept("expiring", "ios-app"), 1)
        XCTAssertEqual(accept("rotated", "ios-app"), 0)
        XCTAssertEqual(accept("backup", "ios-app"), 1)
        for t in ["healthy", "expiring", "rotated", "backup"] { XCTAssertEqual(accept(t, "android-app"), 1, t) }
        XCTAssertEqual(reasons("healthy", "ios-app"), ["pin_match"])
        XCTAssertEqual(reasons("rotated", "ios-app"), ["pin_mismatch"])
        XCTAssertEqual(reasons("backup", "ios-app"), ["pin_match"])
        XCTAssertEqual(reasons("rotated", "android-app"), ["pin_match"])

        // A failed probe has a reason but no verdict; an uncovered target has no evaluation series at all.
        XCTAssertEqual(reasons("down", "android-app"), ["probe_failed"])
        XCTAssertTrue(m.samples("pinguard_policy_accept", ["target": "down"]).isEmpty)
        XCTAssertTrue(m.samples("pinguard_pin_matched", ["target": "down"]).isEmpty)
        XCTAssertTrue(m.samples("pinguard_reserve_pins", ["target": "down"]).isEmpty)
        for family in ["pinguard_policy_accept", "pinguard_policy_decision_info", "pinguard_pin_matched", "pinguard_reserve_pins"] {
            XCTAssertTrue(m.samples(family, ["target": "uncovered"]).isEmpty, family)
        }

        func pin(_ target: String, _ set: String, _ hash: String, _ type: String = "spki") -> Double? {
            m.value("pinguard_pin_matched", ["target": target, "policy_set": set, "pin": hash, "type": type])
        }
        XCTAssertEqual(pin("healthy", "ios-app", w.validLeafPin), 1)
        XCTAssertEqual(m.samples("pinguard_pin_matched", ["target": "healthy", "policy_set": "ios-app", "pin": w.validLeafPin]).first?.labels,
                       ["target": "healthy", "policy_set": "ios-app", "pin": w.validLeafPin, "role": "primary", "type": "spki", "scope": "leaf"])
        XCTAssertEqual(pin("healthy", "ios-app", w.reservePin), 0)
        XCTAssertEqual(pin("rotated", "ios-app", w.staleRotatedPin), 0)
        XCTAssertEqual(pin("rotated", "ios-app", w.reservePin), 0)
        XCTAssertEqual(pin("backup", "ios-app", w.staleBackupPrimaryPin), 0)
        XCTAssertEqual(pin("backup", "ios-app", w.backupLeafPin), 1)
        XCTAssertEqual(m.samples("pinguard_pin_matched", ["target": "backup", "policy_set": "ios-app", "pin": w.backupLeafPin]).first?.labels["role"], "backup")
        XCTAssertEqual(pin("expiring", "android-app", w.intermediatePin, "ca"), 1)
        XCTAssertEqual(m.samples("pinguard_pin_matched", ["target": "healthy"]).count, 4, "every configured pin of both sets")

        func reserve(_ target: String, _ set: String) -> Double? {
            m.value("pinguard_reserve_pins", ["target": target, "policy_set": set])
        }
        XCTAssertEqual(reserve("healthy", "ios-app"), 1)
        XCTAssertEqual(reserve("expiring", "ios-app"), 0)
        XCTAssertEqual(reserve("rotated", "ios-app"), 2)
        XCTAssertEqual(reserve("backup", "ios-app"), 1)
        XCTAssertEqual(reserve("healthy", "android-app"), 1)

        // Pin horizon: the leaf for leaf pins, the intermediate for the CA pin.
        let expiringLeaf = try XCTUnwrap(m.value("pinguard_cert_not_after_timestamp_seconds", ["target": "expiring", "depth": "0"]))
        let intermediateLink = try XCTUnwrap(m.samples("pinguard_chain_cert_info", ["target": "expiring", "depth": "1"]).first)
        let intermediate = try XCTUnwrap(m.value("pinguard_ca_cert_not_after_timestamp_seconds",
                                                 ["cert_sha256": intermediateLink.labels["cert_sha256"] ?? "-"]))
        XCTAssertEqual(m.value("pinguard_pin_horizon_timestamp_seconds", ["target": "expiring", "policy_set": "ios-app"]), expiringLeaf)
        XCTAssertEqual(m.value("pinguard_pin_horizon_timestamp_seconds", ["target": "expiring", "policy_set": "android-app"]), intermediate)
        XCTAssertTrue(m.samples("pinguard_pin_horizon_timestamp_seconds", ["target": "rotated", "policy_set": "ios-app"]).isEmpty,
                      "nothing matches, no horizon")

        // Pin-set expiry only where the policy sets `expires`.
        let expires = try XCTUnwrap(m.value("pinguard_pin_set_expiry_timestamp_seconds", ["target": "healthy", "policy_set": "ios-app"]))
        XCTAssertEqual(expires, 4_102_444_800, "a date-only expires: the end of 2099-12-31 UTC, pins are enforced through that day")
        XCTAssertEqual(m.samples("pinguard_pin_set_expiry_timestamp_seconds").count, 1)

        // ios-app: healthy, rotated and backup have a reserve pin, expiring has none; the failed probe does not count.
        XCTAssertEqual(m.value("pinguard_backup_pin_coverage_ratio", ["policy_set": "ios-app", "environment": "prod"]), 0.75)
        XCTAssertEqual(m.value("pinguard_backup_pin_coverage_ratio", ["policy_set": "android-app", "environment": "prod"]), 1)
    }

    /// The real output passes `promtool check metrics` (format and naming lint), and is kept as a sample.
    func testPromtoolAcceptsTheRealOutput() throws {
        let s = try RunningService.shared()
        guard let promtool = CommandRunner.which("promtool") else { throw XCTSkip("promtool is not installed") }
        let text = try s.serve.metricsText()
        let file = try TemporaryDirectory.make("pinguard-metrics").appendingPathComponent("metrics.txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        if let keep = ProcessInfo.processInfo.environment["PINGUARD_METRICS_SAMPLE"] {
            try? text.write(toFile: keep, atomically: true, encoding: .utf8)
        }
        let r = try CommandRunner.shell("\(CommandRunner.quote(promtool)) check metrics < \(CommandRunner.quote(file.path))")
        XCTAssertEqual(r.status, 0, "promtool check metrics:\n\(r)")
        XCTAssertEqual((r.stdout + r.stderr).trimmingCharacters(in: .whitespacesAndNewlines), "", "promtool has remarks:\n\(r)")
        // Every family is announced once, before its samples, with HELP and TYPE.
        let m = try Exposition(text)
        XCTAssertEqual(m.families.count, Set(m.families).count, "a family appears twice")
        for name in m.families { XCTAssertNotNil(m.type[name], "\(name) has HELP but no TYPE") }
        for sample in m.samples { XCTAssertNotNil(m.help[sample.name], "\(sample.name) has no HELP") }
    }

    /// contrib/prometheus/exported-metrics.txt (what rules and dashboards rely on) matches a real /metrics.
    func testExportedMetricNamesMatchARealScrape() throws {
        let s = try RunningService.shared()
        let m = try s.serve.metrics()
        let listFile = Repository.root.appendingPathComponent("contrib/prometheus/exported-metrics.txt")
        let listed = try String(contentsOf: listFile, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertGreaterThanOrEqual(listed.count, 25)
        // Families whose series exist only when something applies; their HELP and TYPE are always there.
        let onlyWhenApplicable: [String: String] = [
            "pinguard_policy_lint_findings": "only when lint reports findings on the loaded policies",
            "pinguard_mtls_client_certificate_presented": "only when a server asks for a client certificate (MTLSClientIdentityTests)",
            "pinguard_client_certificate_not_after_timestamp_seconds": "only for targets with a client identity (MTLSClientIdentityTests)",
            "pinguard_policy_bundle_valid": "only with policy_bundles configured (CLIPolicyBundleTests)",
            "pinguard_policy_bundle_info": "only with policy_bundles configured (CLIPolicyBundleTests)",
            "pinguard_target_info": "only for targets with labels from target_files",
            "pinguard_last_renewal_timestamp_seconds": "only after a renewal was observed (scripts/test-renewals.sh)",
            "pinguard_last_renewal_key_reused": "only after a renewal was observed (scripts/test-renewals.sh)",
            "pinguard_last_renewal_issuer_changed": "only after a renewal was observed (scripts/test-renewals.sh)",
            "pinguard_ct_scts": "only while a policy set checks CT, for public chains or chains with SCTs (CTClientVerdictsTests)",
            "pinguard_chain_trusted": "only 0, for a chain that fails trust (SeriesAtTheirDefaultTests)",
            "pinguard_target_addresses": "only for targets with no address or several (AddressNodesTests)",
            "pinguard_renewals_observed_total": "only after a renewal was observed (scripts/test-renewals.sh)",
            "pinguard_leaf_key_first_seen_timestamp_seconds": "only for a key kept across a renewal (scripts/test-renewals.sh)",
            "pinguard_renewal_reject_ratio": "only for a set the next renewal may break (scripts/test-renewals.sh)",
            "pinguard_renewal_forecast_info": "only for a forecast that knows more than the served chain (scripts/test-renewals.sh)",
            "pinguard_tls_cipher_info": "only for a cipher other than TLS_AES_256_GCM_SHA384 (SeriesAtTheirDefaultTests)",
            "pinguard_tls_group_info": "only for a group other than X25519 (SeriesAtTheirDefaultTests)",
            "pinguard_ct_compliant": "only while a policy set checks CT, for publicly anchored chains (CTClientVerdictsTests)",
            "pinguard_address_policy_accept": "only for targets with several addresses (AddressNodesTests)",
            "pinguard_target_distinct_chains": "only for targets with several addresses (AddressNodesTests)",
            "pinguard_target_addresses_skipped": "only for targets with several addresses or addresses skipped (AddressNodesTests)",
            "pinguard_mtls_client_certificate_requested": "only when a server asks or a target has a client identity (MTLSClientIdentityTests)",
            "pinguard_certificate_revoked": "only for certificates that name a CRL distribution point (RevocationServeTests)",
            "pinguard_crl_next_update_timestamp_seconds": "only once a CRL was believed (RevocationServeTests)",
            "pinguard_crl_fetch_success": "only for CRL distribution points a served chain names (RevocationServeTests)",
            "pinguard_ari_window_start_timestamp_seconds": "only while the CA gives a renewal window (RenewalInfoServiceTests)",
            "pinguard_shard_index": "only with shard: or --shard (ShardedConfigurationTests)",
            "pinguard_shard_total": "only with shard: or --shard (ShardedConfigurationTests)",
            "pinguard_ari_window_end_timestamp_seconds": "only while the CA gives a renewal window (RenewalInfoServiceTests)",
        ].merging(["success", "chain_trusted", "cert_not_after_timestamp_seconds", "chain_earliest_expiry_timestamp_seconds",
                   "policy_accept", "pin_horizon_timestamp_seconds", "reserve_pins"].map { ("pinguard_file_" + $0, "only with files:") },
                  uniquingKeysWith: { a, _ in a })
        for name in listed {
            XCTAssertNotNil(m.help[name], "\(name) is listed but has no HELP on /metrics")
            XCTAssertEqual(m.type[name], name.hasSuffix("_total") && name != "pinguard_shard_total" ? "counter" : "gauge", name)
            if onlyWhenApplicable[name] == nil {
                XCTAssertFalse(m.samples(name).isEmpty, "\(name) is listed but has no sample on /metrics")
            }
        }
        // The reverse: what /metrics serves beyond the list (known and reported: the journal failure counter).
        let notListed: Set<String> = ["pinguard_journal_write_failures_total"]
        let extra = Set(m.families).subtracting(listed).subtracting(notListed)
        XCTAssertEqual(extra, [], "served but not in exported-metrics.txt")
    }
}
