import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import PinGuardProbeTestSupport
import XCTest

/// Peers that are not the TLS server they should be: every probe returns facts with an error, on time,
/// and never crashes the process. "On time" is told without a clock: a probe that must fail at once is given a
/// ten-minute deadline and returns well before it with its own error, and one that must wait for its deadline
/// returns with the error that names it.
final class HostilePeerTests: XCTestCase {
    /// The deadline of probes that must fail without waiting for one.
    let patience = 600.0

    func testSilentPeerFailsAtTheDeadline() throws {
        let s = try LiveServers.shared()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let facts = s.prober.probe(ProbeRequest(host: "silent.pinguard.test", port: peer.port, connect: ["127.0.0.1"],
                                                timeout: 1))
        assertFailed(facts)
        let error = facts.error ?? ""
        XCTAssertEqual(error, "TLS handshake with 127.0.0.1:\(peer.port): timeout after 1s",
                       "names the phase, the address and the deadline")
        XCTAssertGreaterThanOrEqual(facts.duration, 0.9, "it waited for the deadline")
        XCTAssertEqual(facts.address, "127.0.0.1:\(peer.port)", "the address is known before the handshake")
        XCTAssertEqual(peer.acceptedConnections, 1)
    }

    func testGarbageBytesFailWithATLSError() throws {
        let s = try LiveServers.shared()
        let peer = try HostilePeer(.sshBannerAndNoise)
        defer { peer.stop() }
        let facts = s.prober.probe(ProbeRequest(host: "garbage.pinguard.test", port: peer.port, connect: ["127.0.0.1"],
                                                timeout: patience))
        assertFailed(facts)
        let error = facts.error ?? ""
        XCTAssertTrue(error.hasPrefix("TLS handshake with 127.0.0.1:\(peer.port): "), error)
        XCTAssertFalse(error.contains("timeout"), error)
        XCTAssertTrue(error.contains("wrong version number") || error.contains("packet length too long")
                      || error.contains("record"), error)
        XCTAssertLessThan(facts.duration, patience, "failed at once, not at the deadline")
    }

    func testPeerClosingAtOnceIsAnUnexpectedEOF() throws {
        let s = try LiveServers.shared()
        let peer = try HostilePeer(.closeImmediately)
        defer { peer.stop() }
        let facts = s.prober.probe(ProbeRequest(host: "eof.pinguard.test", port: peer.port, connect: ["127.0.0.1"], timeout: patience))
        assertFailed(facts)
        let error = facts.error ?? ""
        XCTAssertTrue(error.hasPrefix("TLS handshake with 127.0.0.1:\(peer.port): "), error)
        XCTAssertTrue(error.contains("eof") || error.contains("closed") || error.contains("reset"), error)
        XCTAssertLessThan(facts.duration, patience, "failed at once, not at the deadline")
    }

    func testPeerResettingAtOnceIsAConnectionReset() throws {
        let s = try LiveServers.shared()
        let peer = try HostilePeer(.reset)
        defer { peer.stop() }
        let facts = s.prober.probe(ProbeRequest(host: "rst.pinguard.test", port: peer.port, connect: ["127.0.0.1"], timeout: patience))
        assertFailed(facts)
        let error = facts.error ?? ""
        // On a loaded machine the reset can land while the connection is still being set up.
        XCTAssertTrue(error.hasPrefix("TLS handshake with 127.0.0.1:\(peer.port): ") || error.hasPrefix("connect to 127.0.0.1:\(peer.port): "),
                      error)
        XCTAssertTrue(error.contains("Connection reset by peer") || error.contains("eof"), error)
        XCTAssertLessThan(facts.duration, patience, "failed at once, not at the deadline")
    }

    func testClosedPortIsRefused() throws {
        let s = try LiveServers.shared()
        let port = LoopbackPorts.closed()
        let facts = s.prober.probe(ProbeRequest(host: "closed.pinguard.test", port: port, connect: ["127.0.0.1"], timeout: patience))
        assertFailed(facts)
        XCTAssertEqual(facts.error, "connect to 127.0.0.1:\(port): Connection refused")
        XCTAssertEqual(facts.address, "127.0.0.1:\(port)", "the one address dialled is named even when it refuses")
        XCTAssertLessThan(facts.duration, patience, "refused at once, not at the deadline")
    }

    func testTLS10OnlyServerFailsWithAProtocolError() throws {
        let s = try LiveServers.shared()
        let server = try TLSServer.tls10Only(pki: s.pki)
        defer { server.stop() }
        let facts = s.prober.probe(ProbeRequest(host: s.pki.serverName("valid"), port: server.port,
                                                connect: ["127.0.0.1"], timeout: 5))
        assertFailed(facts)
        let error = facts.error ?? ""
        XCTAssertTrue(error.hasPrefix("TLS handshake with 127.0.0.1:\(server.port): "), error)
        XCTAssertTrue(error.lowercased().contains("protocol"), error)
        XCTAssertFalse(error.contains("timeout"), error)
    }

    func testHundredCertificateChainDoesNotCrash() throws {
        let s = try LiveServers.shared()
        let server = try TLSServer.longChain(pki: s.pki, count: 100)
        defer { server.stop() }
        let facts = s.prober.probe(ProbeRequest(host: s.pki.serverName("valid"), port: server.port,
                                                connect: ["127.0.0.1"], timeout: 5))
        if let error = facts.error {
            XCTAssertFalse(error.isEmpty)
            XCTAssertFalse(error.contains("timeout"), error)
        } else {
            XCTAssertEqual(facts.servedChain.count, 100)
            XCTAssertEqual(facts.servedChain.map(\.depth), Array(0..<100))
            let intSPKI = try OpenSSLTool.spkiSHA256(certificate: s.pki.intermediate)
            XCTAssertTrue(facts.servedChain.dropFirst().allSatisfy { $0.spkiSHA256 == intSPKI })
            XCTAssertEqual(facts.servedChain.first?.spkiSHA256,
                           try OpenSSLTool.spkiSHA256(certificate: s.pki.certificate("valid")))
        }
    }

    /// A server that requires a client certificate. With TLS 1.3 the client's handshake completes before
    /// the server judges the (absent) client certificate, so the chain is retrieved.
    func testServerRequiringAClientCertificateOverTLS13() throws {
        let s = try LiveServers.shared()
        let server = try TLSServer.leaf("valid", pki: s.pki, extraArguments: ["-Verify", "1", "-tls1_3"])
        defer { server.stop() }
        let facts = s.prober.probe(ProbeRequest(host: s.pki.serverName("valid"), port: server.port,
                                                connect: ["127.0.0.1"], timeout: 5))
        XCTAssertNil(facts.error)
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
        XCTAssertEqual(facts.servedChain.count, 2)
    }

    /// With TLS 1.2 the server aborts the handshake with a handshake_failure alert after it sent its chain:
    /// the alert is told apart from a failure on this side by OpenSSL's error code (not its text), so the
    /// chain is judged and the alert reported beside it.
    func testServerRequiringAClientCertificateOverTLS12EndsWithAnAlertAndTheChainIsKept() throws {
        let s = try LiveServers.shared()
        let server = try TLSServer.leaf("valid", pki: s.pki, extraArguments: ["-Verify", "1", "-tls1_2"])
        defer { server.stop() }
        let facts = s.prober.probe(ProbeRequest(host: s.pki.serverName("valid"), port: server.port,
                                                connect: ["127.0.0.1"], timeout: patience))
        XCTAssertNil(facts.error)
        XCTAssertEqual(facts.servedChain.count, 2)
        XCTAssertTrue(facts.handshakeError?.contains("handshake failure") == true, facts.handshakeError ?? "no handshake error")
        XCTAssertLessThan(facts.duration, patience, "the alert ended the handshake, not the deadline")
    }

    /// One prober, one `SSL_CTX`, many threads: every result equals the single-threaded one.
    func testConcurrentProbesShareOneProber() throws {
        let s = try LiveServers.shared()
        let closed = LoopbackPorts.closed()
        let names = ["valid", "rsa", "ed25519", "expired", "wronghost", "selfsigned", "rotated", "closed"]
        @Sendable func request(_ name: String) -> ProbeRequest {
            name == "closed"
                ? ProbeRequest(host: "closed.pinguard.test", port: closed, connect: ["127.0.0.1"], timeout: 5)
                : s.request(name)
        }
        @Sendable func summary(_ f: ProbeFacts) -> String {
            "\(f.error ?? "-") \(f.trusted) \(f.trustError ?? "-") \(f.servedChain.map(\.certSHA256)) \(f.verifiedChain.map(\.certSHA256))"
        }
        let expected = names.map { summary(s.prober.probe(request($0))) }
        let count = 64
        let results = ResultSlots(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            results.set(i, summary(s.prober.probe(request(names[i % names.count]))))
        }
        for i in 0..<count {
            XCTAssertEqual(results.get(i), expected[i % names.count], "probe \(i) (\(names[i % names.count]))")
        }
    }

    private func assertFailed(_ facts: ProbeFacts, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotNil(facts.error, file: file, line: line)
        XCTAssertFalse(facts.success, file: file, line: line)
        XCTAssertEqual(facts.servedChain, [], file: file, line: line)
        XCTAssertFalse(facts.trusted, file: file, line: line)
        XCTAssertNil(facts.tlsVersion, file: file, line: line)
    }
}

/// One result slot per probe, written from many threads.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: String) { lock.withLock { slots[i] = value } }
    func get(_ i: Int) -> String? { lock.withLock { slots[i] } }
}
