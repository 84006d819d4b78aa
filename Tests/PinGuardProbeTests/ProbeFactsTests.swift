import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import PinGuardProbeTestSupport
import XCTest

/// What `TLSProber` reports from real handshakes: protocol, address family, resolution, the served and
/// the verified chain, and OpenSSL's own text when trust fails — with the certificate data kept.
final class ProbeFactsTests: XCTestCase {
    func testNegotiatesTLS13WhenTheServerOffersIt() throws {
        let s = try LiveServers.shared()
        let started = Date()
        let facts = s.probe("valid")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertNil(facts.error)
        XCTAssertEqual(facts.tlsVersion, "TLSv1.3")
        XCTAssertTrue(facts.success)
        // The duration is the probe's own, in seconds: within the time the call took, whatever that was.
        XCTAssertGreaterThan(facts.duration, 0)
        XCTAssertLessThanOrEqual(facts.duration, elapsed)
    }

    func testNegotiatesTLS12WithATLS12OnlyServer() throws {
        let s = try LiveServers.shared()
        let facts = s.prober.probe(ProbeRequest(host: s.pki.serverName("valid"), port: s.tls12Farm.port,
                                                connect: ["127.0.0.1"], timeout: 5))
        XCTAssertNil(facts.error)
        XCTAssertEqual(facts.tlsVersion, "TLSv1.2")
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
        XCTAssertEqual(facts.servedChain.first?.spkiSHA256,
                       try OpenSSLTool.spkiSHA256(certificate: s.pki.certificate("valid")))
    }

    func testDialsIPv4Address() throws {
        let s = try LiveServers.shared()
        let facts = s.probe("valid", connect: "127.0.0.1")
        XCTAssertNil(facts.error)
        XCTAssertEqual(facts.address, "127.0.0.1:\(s.farm.port)")
        XCTAssertEqual(facts.host, "valid.pinguard.test", "the server name stays the host, not the dialled address")
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
    }

    func testDialsIPv6Loopback() throws {
        guard LoopbackPorts.ipv6Available else { throw XCTSkip("this host has no IPv6 loopback (::1)") }
        let s = try LiveServers.shared()
        XCTAssertTrue(s.farm.listensOnIPv6)
        let facts = s.probe("valid", connect: "::1")
        XCTAssertNil(facts.error)
        XCTAssertEqual(facts.address, "[::1]:\(s.farm.port)")
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
        XCTAssertEqual(facts.servedChain.first?.subject, "CN=valid.pinguard.test")

        // An IPv6 literal as the server name: no SNI, the default site answers, and the certificate
        // has no IP SAN, so verification fails on the address — with the chain kept.
        let literal = s.prober.probe(ProbeRequest(host: "::1", port: s.farm.port, timeout: 5))
        XCTAssertNil(literal.error)
        XCTAssertEqual(literal.address, "[::1]:\(s.farm.port)")
        XCTAssertFalse(literal.trusted)
        XCTAssertEqual(literal.trustError, "IP address mismatch")
        XCTAssertEqual(literal.servedChain.count, 2)
    }

    func testResolvesLocalhostWithoutConnect() throws {
        let s = try LiveServers.shared()
        let facts = s.prober.probe(ProbeRequest(host: "localhost", port: s.farm.port, timeout: 5))
        XCTAssertNil(facts.error)
        XCTAssertTrue(["127.0.0.1:\(s.farm.port)", "[::1]:\(s.farm.port)"].contains(facts.address ?? ""),
                      facts.address ?? "no address")
        XCTAssertEqual(facts.host, "localhost")
        // The default site (valid) answers an unknown name; its certificate is not for localhost.
        XCTAssertEqual(facts.servedChain.first?.subject, "CN=valid.pinguard.test")
        XCTAssertFalse(facts.trusted)
        XCTAssertEqual(facts.trustError, "hostname mismatch")
    }

    func testVerifiedChainAddsTheRootFromTheStore() throws {
        let s = try LiveServers.shared()
        let facts = s.probe("valid")
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
        XCTAssertNil(facts.trustError)
        XCTAssertEqual(facts.servedChain.map(\.source), [.served, .served])
        XCTAssertEqual(facts.servedChain.map(\.depth), [0, 1])
        XCTAssertEqual(facts.verifiedChain.map(\.source), [.served, .served, .store])
        XCTAssertEqual(facts.verifiedChain.map(\.depth), [0, 1, 2])
        XCTAssertEqual(Array(facts.verifiedChain.prefix(2)), facts.servedChain)
        XCTAssertEqual(facts.evaluatedChain, facts.verifiedChain)
        let root = try XCTUnwrap(facts.verifiedChain.last)
        XCTAssertEqual(root.spkiSHA256, try OpenSSLTool.spkiSHA256(certificate: s.pki.root))
        XCTAssertEqual(root.subject, "CN=pinguard Test Root,O=pinguard test")
        XCTAssertTrue(root.selfIssued)
        XCTAssertTrue(root.isCA)
        XCTAssertTrue(facts.verifiedChain[1].isCA)
        XCTAssertFalse(facts.verifiedChain[0].isCA)
        XCTAssertEqual(facts.verifiedChain[0].issuer, facts.verifiedChain[1].subject)
        XCTAssertEqual(ChainPositions.anchorDepth(of: facts.evaluatedChain), 2)
    }

    func testTrustFailuresCarryOpenSSLsTextAndKeepTheCertificates() throws {
        let s = try LiveServers.shared()
        let cases: [(leaf: String, error: String)] = [
            ("wronghost", "hostname mismatch"),
            ("expired", "certificate has expired"),
            ("selfsigned", "self-signed certificate"),
            ("otherca", "unable to get local issuer certificate"),
        ]
        for c in cases {
            let facts = s.probe(c.leaf)
            XCTAssertNil(facts.error, c.leaf)
            XCTAssertTrue(facts.success, c.leaf)
            XCTAssertFalse(facts.trusted, c.leaf)
            XCTAssertEqual(facts.trustError, c.error, c.leaf)
            XCTAssertEqual(facts.verifiedChain, [], c.leaf)
            XCTAssertEqual(facts.evaluatedChain, facts.servedChain, "\(c.leaf): judged on the chain as served")
            XCTAssertEqual(facts.servedChain.count, c.leaf == "selfsigned" ? 1 : 2, c.leaf)
            XCTAssertEqual(facts.servedChain.first?.spkiSHA256,
                           try OpenSSLTool.spkiSHA256(certificate: s.pki.certificate(c.leaf)), c.leaf)
            XCTAssertEqual(facts.servedChain.first?.certSHA256,
                           try OpenSSLTool.certSHA256(certificate: s.pki.certificate(c.leaf)), c.leaf)
            XCTAssertTrue(facts.servedChain.allSatisfy { $0.source == .served }, c.leaf)
        }
    }

    func testExpiredLeafKeepsItsDates() throws {
        let s = try LiveServers.shared()
        let facts = s.probe("expired")
        let leaf = try XCTUnwrap(facts.servedChain.first)
        let fromFile = try XCTUnwrap(try s.fileFacts(s.pki.certificate("expired")).first)
        XCTAssertEqual(leaf.notAfter, fromFile.notAfter)
        XCTAssertEqual(leaf.notBefore, fromFile.notBefore)
        XCTAssertEqual(leaf.serial, fromFile.serial)
        XCTAssertLessThan(leaf.notAfter, Date())
        XCTAssertEqual(leaf.notAfter.timeIntervalSinceNow / 86_400, -2, accuracy: 0.1)
        XCTAssertEqual(facts.servedChain[1].spkiSHA256, try OpenSSLTool.spkiSHA256(certificate: s.pki.intermediate))
    }

    func testSystemTrustStoreDoesNotTrustTheTestRoot() throws {
        let s = try LiveServers.shared()
        let system = try TLSProber()
        XCTAssertNil(system.caFile)
        let facts = system.probe(s.request("valid"))
        XCTAssertNil(facts.error)
        XCTAssertFalse(facts.trusted)
        XCTAssertEqual(facts.trustError, "unable to get local issuer certificate")
        XCTAssertEqual(facts.servedChain.count, 2)
        XCTAssertEqual(facts.verifiedChain, [])
    }

    func testBothRootsBundleTrustsTheOtherCA() throws {
        let s = try LiveServers.shared()
        let both = try TLSProber(caFile: s.pki.caBundleBothRoots)
        let facts = both.probe(s.request("otherca"))
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
        XCTAssertEqual(facts.verifiedChain.last?.spkiSHA256, try OpenSSLTool.spkiSHA256(certificate: s.pki.otherRoot))
        XCTAssertEqual(facts.verifiedChain.last?.source, .store)
    }

    func testUnreadableCAFileIsAnError() throws {
        XCTAssertThrowsError(try TLSProber(caFile: "/nonexistent/ca.pem")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/ca.pem"), "\(error)")
        }
    }
}
