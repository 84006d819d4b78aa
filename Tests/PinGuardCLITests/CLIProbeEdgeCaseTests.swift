import Foundation
import PinGuardTestSupport
import XCTest

/// `probe` at its edges: a chain received before a failed handshake is judged, and huge `--timeout`
/// values are refused as usage errors.
final class CLIProbeEdgeCaseTests: XCTestCase {
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
}
