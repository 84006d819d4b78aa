import Foundation
import PinGuardCore
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// Command-line fixes of the review: chains received before a failed handshake are judged, `pin` reads
/// PEM anywhere in a file and reports broken blocks, config errors carry the line of the offending YAML
/// node (not of a comment mentioning the same word), and huge `--timeout` values are refused cleanly.
final class ReviewFixProbeTests: XCTestCase {
    // MARK: probe: a chain received before the handshake failed

    /// A TLS 1.2 server demanding a client certificate sends its chain, then aborts the handshake: the
    /// chain is retrieved, verified and judged like any other, and the failure is reported beside it.
    func testChainReceivedBeforeAFailedHandshakeIsJudged() throws {
        let pki = try TestPKI.shared()
        let pins = try PKIPins.shared()
        let server = try TLSServer.leaf("valid", pki: pki, extraArguments: ["-Verify", "1", "-tls1_2"])
        defer { server.stop() }
        let dir = try TemporaryDirectory.make("pinguard-rf-clientcert")
        let app = try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "valid.pinguard.test", pins: [.spki(pins.leaf("valid"), role: "primary", scope: "leaf"),
                                                                  .spki(pins.reserve, role: "backup")]),
        ]), to: dir, as: "app.yml")
        let stale = try PolicyYAML.write(PolicyYAML.policySet(name: "stale", rules: [
            HostPolicySpec(pattern: "valid.pinguard.test", pins: [.spki(pins.leaf("rotated"), role: "primary", scope: "leaf"),
                                                                  .spki(pins.reserve, role: "backup")]),
        ]), to: dir, as: "stale.yml")
        let target = "\(pki.serverName("valid")):\(server.port)"

        let r = try runPinguard(args: ["probe", target, "--connect", "127.0.0.1", "--ca-file", pki.caBundle,
                                       "--policy", app, "--policy", stale, "--timeout", "5s", "--json"])
        XCTAssertEqual(r.status, 1, "one client rejects: \(r)")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        let probe = try XCTUnwrap(object["probe"] as? [String: Any])
        XCTAssertEqual(probe["success"] as? Bool, true, "\(probe)")
        XCTAssertTrue(probe["error"] is NSNull, "\(probe)")
        let handshakeError = try XCTUnwrap(probe["handshake_error"] as? String, "\(probe)")
        XCTAssertTrue(handshakeError.contains("TLS handshake with 127.0.0.1:\(server.port)"), handshakeError)
        XCTAssertTrue(handshakeError.contains("handshake failure"), handshakeError)
        XCTAssertEqual(probe["tls_version"] as? String, "TLSv1.2")
        XCTAssertEqual(object["trusted"] as? Bool, true, "\(object)")
        XCTAssertTrue(object["trust_error"] is NSNull)
        XCTAssertEqual(object["served_chain_length"] as? Int, 2)
        let chain = try XCTUnwrap(object["chain"] as? [[String: Any]])
        XCTAssertEqual(chain.map { $0["spki_sha256"] as? String }, [pins.leaf("valid"), pins.intermediate, pins.root])
        XCTAssertEqual(chain.map { $0["source"] as? String }, ["served", "served", "store"])

        let evaluations = try XCTUnwrap(object["evaluations"] as? [[String: Any]])
        let bySet = Dictionary(uniqueKeysWithValues: evaluations.map { ($0["policy_set"] as? String ?? "?", $0) })
        XCTAssertEqual(Set(bySet.keys), ["app", "stale"])
        XCTAssertEqual(bySet["app"]?["verdict"] as? String, "accept")
        XCTAssertEqual(bySet["app"]?["reason"] as? String, "pin_match")
        let matched = try XCTUnwrap(bySet["app"]?["matched_pins"] as? [[String: Any]])
        XCTAssertEqual(matched.map { $0["hash"] as? String }, [pins.leaf("valid")])
        XCTAssertEqual(bySet["app"]?["reserve_pins"] as? Int, 1)
        XCTAssertEqual(bySet["stale"]?["verdict"] as? String, "reject")
        XCTAssertEqual(bySet["stale"]?["reason"] as? String, "pin_mismatch")

        // The table says so too, and a client that accepts gives exit 0.
        let text = try runPinguard(args: ["probe", target, "--connect", "127.0.0.1", "--ca-file", pki.caBundle,
                                          "--policy", app, "--timeout", "5s"])
        XCTAssertEqual(text.status, 0, "\(text)")
        XCTAssertTrue(text.stdout.contains("chain received, then the handshake failed: TLS handshake with 127.0.0.1:\(server.port)"),
                      text.stdout)
        XCTAssertTrue(text.stdout.contains("trusted  yes"), text.stdout)
    }

    // MARK: pin: PEM anywhere, broken blocks reported

    /// `openssl x509 -text` output puts the PEM block after the text dump; with a little more in front
    /// the block starts beyond 4 KiB, and it is still found.
    func testPinFindsAPEMBlockBeyondTheFirst4KiB() throws {
        let pki = try TestPKI.shared()
        let dump = try CommandRunner.run(OpenSSLTool.path, ["x509", "-in", pki.certificate("rsa"), "-text"])
        XCTAssertEqual(dump.status, 0, "\(dump)")
        let notes = (1...40).map { "# note \($0): exported from the load balancer, keep for the audit trail ...........\n" }.joined()
        let text = notes + dump.stdout
        let offset = try XCTUnwrap(text.range(of: "-----BEGIN CERTIFICATE-----")).lowerBound.utf16Offset(in: text)
        XCTAssertGreaterThan(offset, 4096 + 512, "the block must start well beyond 4 KiB")
        let dir = try TemporaryDirectory.make("pinguard-rf-pin")
        let file = try PolicyYAML.write(text, to: dir, as: "rsa-with-text.pem")

        let r = try runPinguard(args: ["pin", "--json", file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.first?["spki_sha256"] as? String, try OpenSSLTool.spkiSHA256(certificate: pki.certificate("rsa")))
        XCTAssertEqual(list.first?["cert_sha256"] as? String, try OpenSSLTool.certSHA256(certificate: pki.certificate("rsa")))
    }

    /// A bundle whose second block's body is damaged is refused (exit 2) naming the block, instead of
    /// silently printing the pins of the first certificate only.
    func testPinReportsABrokenSecondBlock() throws {
        let pki = try TestPKI.shared()
        let dir = try TemporaryDirectory.make("pinguard-rf-pin-broken")
        let original = try String(contentsOfFile: pki.chain("valid"), encoding: .utf8)
        let end = "-----END CERTIFICATE-----\n"
        let blocks = original.components(separatedBy: end).filter { !$0.isEmpty }
        XCTAssertEqual(blocks.count, 2, original)
        func damaged(_ block: String, _ change: (inout [String]) -> Void) -> String {
            var lines = block.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines[0].hasPrefix("-----BEGIN CERTIFICATE-----"))
            change(&lines)
            return lines.joined(separator: "\n") + "\n"
        }
        let variants: [(String, String)] = [
            // Characters that are not base64 in the middle of the body.
            ("bad-base64.pem", blocks[0] + end + damaged(blocks[1]) { $0[3] = "@@@@" + $0[3].dropFirst(4) } + end),
            // A body line missing: valid base64, a truncated certificate.
            ("truncated.pem", blocks[0] + end + damaged(blocks[1]) { $0.remove(at: 4) } + end),
        ]
        for (name, text) in variants {
            let file = try PolicyYAML.write(text, to: dir, as: name)
            let r = try runPinguard(args: ["pin", file])
            XCTAssertEqual(r.status, 2, "\(name): \(r)")
            XCTAssertTrue(r.stderr.contains("\(file): certificate block 2 is broken"), "\(name): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(name): no partial output")
        }
        // The first block broken: block 1.
        let first = try PolicyYAML.write(damaged(blocks[0]) { $0[2] = "!!" + $0[2].dropFirst(2) } + end + blocks[1] + end,
                                         to: dir, as: "first.pem")
        let r = try runPinguard(args: ["pin", first])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(first): certificate block 1 is broken"), r.stderr)
        // The undamaged bundle still gives both certificates.
        let good = try runPinguard(args: ["pin", "--json", pki.chain("valid")])
        XCTAssertEqual(good.status, 0, "\(good)")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [Any])?.count, 2)
    }

    // MARK: check-config: lines from the YAML, not from a text search

    /// An unknown policy set is reported at its item in `policy_sets`, not at a comment naming it.
    func testUnknownPolicySetIsReportedAtItsItem() throws {
        let dir = try configFolder(config: """
            # policy_sets: [ghost] was the old app; ghost is retired
            interval: 1m
            timeout: 5s
            policies: ["policies/*.yml"]
            journal: {enabled: false}
            targets:
              - host: valid.pinguard.test
              - host: rotated.pinguard.test
                policy_sets:
                  - app
                  - ghost

            """)
        let path = dir.appendingPathComponent("pinguard.yml").path
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(path):11: targets[1].policy_sets[1]: no loaded policy set is named \"ghost\""), r.stderr)

        // Flow style: the item's own line.
        try """
            # ghost
            policies: ["policies/*.yml"]
            targets:
              # ghost again
              - {host: valid.pinguard.test, policy_sets: [ghost]}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let flow = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(flow.status, 2, "\(flow)")
        XCTAssertTrue(flow.stderr.contains("\(path):5: targets[0].policy_sets[0]: no loaded policy set is named \"ghost\""), flow.stderr)
    }

    /// A missing CA file and a policies pattern that matches nothing are reported at their own lines.
    func testMissingFilesAreReportedAtTheirKeys() throws {
        let dir = try configFolder(config: """
            # trust: the old ca_file was policies/extra/*.yml's sibling
            # policies/extra/*.yml and missing-ca.pem are mentioned here first
            policies:
              - "policies/*.yml"
              - "policies/extra/*.yml"
            journal: {enabled: false}

            """)
        let path = dir.appendingPathComponent("pinguard.yml").path
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(path):5: policies[1]: no policy file matches \"policies/extra/*.yml\""), r.stderr)

        try """
            # ca_file: missing-ca.pem (see below)
            trust:
              ca_file: missing-ca.pem
            policies: ["policies/*.yml"]

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let ca = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(ca.status, 2, "\(ca)")
        XCTAssertTrue(ca.stderr.contains("\(path):3: trust.ca_file: cannot read \(dir.appendingPathComponent("missing-ca.pem").path)"),
                      ca.stderr)
    }

    /// Two policy files with the same set name: the second file's `name:` line, not a comment holding "name:".
    func testDuplicatePolicySetNameIsReportedAtItsNameLine() throws {
        let dir = try configFolder(config: "policies: [\"policies/*.yml\"]\n")
        let copy = "# name: copied from a.yml, rename before use\n# version: 1\n"
            + PolicyYAML.policySet(name: "app", rules: [HostPolicySpec(pattern: "x.example", pins: [])])
        let second = try PolicyYAML.write(copy, to: dir, as: "policies/b.yml")
        let r = try runPinguard(args: ["check-config", dir.appendingPathComponent("pinguard.yml").path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(second):3: name: policy set name \"app\" is already used by"), r.stderr)
    }

    // MARK: probe --timeout

    /// A duration too long for the clock (300 years in nanoseconds overflows) is a usage error, not a crash.
    func testHugeProbeTimeoutIsAUsageError() throws {
        for value in ["300y", "2h"] {
            let r = try runPinguard(args: ["probe", "x:1", "--timeout", value], timeout: 15)
            XCTAssertFalse(r.timedOut, "\(r)")
            XCTAssertEqual(r.status, 64, "\(value): \(r)")
            XCTAssertTrue(r.stderr.contains("--timeout \"\(value)\" is longer than the maximum of 1h"), "\(value): \(r.stderr)")
        }
    }

    // MARK: helpers

    /// A folder with `pinguard.yml` (`config`) and `policies/a.yml` defining set `app`.
    private func configFolder(config: String) throws -> URL {
        let pins = try PKIPins.shared()
        let dir = try TemporaryDirectory.make("pinguard-rf-check")
        try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [.spki(pins.leaf("valid")), .spki(pins.reserve, role: "backup")]),
        ]), to: dir, as: "policies/a.yml")
        try PolicyYAML.write(config, to: dir, as: "pinguard.yml")
        return dir
    }
}
