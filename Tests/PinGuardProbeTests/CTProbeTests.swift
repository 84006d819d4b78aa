import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardCTTestSupport
import PinGuardDemo
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// SCTs a live `openssl s_server` presents, collected by `TLSProber` with a keyring and checked by
/// OpenSSL; and the cipher and group every probe reports, CT or not.
final class CTProbeTests: XCTestCase {
    private func probe(_ server: TLSServer, caFile: String?, keyring: CTLogKeyring?) throws -> ProbeFacts {
        let prober = try TLSProber(caFile: caFile, ctLogs: keyring)
        return prober.probe(ProbeRequest(host: "ct.pinguard.test", port: server.port, connect: ["127.0.0.1"], timeout: 5))
    }

    func testTLSExtensionSCTsAreCollectedUnderTLS13AndTLS12() throws {
        let f = try CTFixture.shared()
        let leaf = try f.plainLeaf()
        let list = try TestSCTList.overCertificate(leaf, scts: f.scts([0, 3]) + [TestSCT(log: f.logs[1], timestamp: f.issued,
                                                                                          corruptSignature: true)])
        for version in ["-tls1_3", "-tls1_2"] {
            let server = try f.pki.server(leaf: leaf, tlsSCTs: list, extraArguments: [version])
            defer { server.stop() }
            let facts = try probe(server, caFile: f.pki.caFile, keyring: f.keyring)
            XCTAssertNil(facts.error, version)
            XCTAssertTrue(facts.trusted, facts.trustError ?? version)
            XCTAssertTrue(facts.ct.collected)
            // OpenSSL gathers a connection's SCTs in no promised order.
            XCTAssertEqual(Set(facts.ct.scts), [
                ObservedSCT(logID: f.logs[0].logIDBase64, timestamp: f.issued, source: .tls, status: .valid),
                ObservedSCT(logID: f.logs[3].logIDBase64, timestamp: f.issued, source: .tls, status: .unknownLog),
                ObservedSCT(logID: f.logs[1].logIDBase64, timestamp: f.issued, source: .tls, status: .invalid),
            ], version)
            XCTAssertEqual(facts.ct.scts.count, 3, version)
        }
    }

    func testEmbeddedSCTsOfTheServedLeafAreCheckedWithItsIssuer() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0, 1, 2]))
        let server = try f.pki.server(leaf: leaf.certificate)
        defer { server.stop() }
        let trusted = try probe(server, caFile: f.pki.caFile, keyring: f.keyring)
        XCTAssertTrue(trusted.trusted, trusted.trustError ?? "")
        XCTAssertEqual(trusted.ct.scts.map(\.status), [.valid, .valid, .valid])
        XCTAssertEqual(Set(trusted.ct.scts.map(\.source)), [.embedded])
        // Untrusted (the system store knows no test root): the issuer is the certificate served after the leaf.
        let untrusted = try probe(server, caFile: nil, keyring: f.keyring)
        XCTAssertFalse(untrusted.trusted)
        XCTAssertEqual(untrusted.ct.scts.map(\.status), [.valid, .valid, .valid])
    }

    func testEmbeddedAndTLSSCTsAreReportedTogether() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0, 1]))
        let list = try TestSCTList.overCertificate(leaf.certificate, scts: f.scts([2]))
        let server = try f.pki.server(leaf: leaf.certificate, tlsSCTs: list)
        defer { server.stop() }
        let facts = try probe(server, caFile: f.pki.caFile, keyring: f.keyring)
        XCTAssertEqual(facts.ct.scts.filter { $0.status == .valid }.map(\.source).sorted { $0.rawValue < $1.rawValue },
                       [.embedded, .embedded, .tls])
        XCTAssertEqual(facts.ct.scts.count, 3)
    }

    func testMalformedTLSSCTListIsIgnoredWithoutFailingTheHandshake() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0]))
        let server = try f.pki.server(leaf: leaf.certificate, tlsSCTs: TestSCTList.malformed)
        defer { server.stop() }
        let facts = try probe(server, caFile: f.pki.caFile, keyring: f.keyring)
        XCTAssertNil(facts.error)
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
        XCTAssertTrue(facts.ct.collected)
        XCTAssertEqual(facts.ct.scts.map(\.source), [.embedded], "the broken TLS list adds nothing; the embedded SCT stays")
        XCTAssertEqual(facts.ct.scts.map(\.status), [.valid])
    }

    func testSCTOfAnUnknownVersionIsInvalidBesideAValidOne() throws {
        let f = try CTFixture.shared()
        let leaf = try f.plainLeaf()
        let valid = try TestSCT(log: f.logs[0], timestamp: f.issued).signed(over: .certificate(der: leaf.der))
        let server = try f.pki.server(leaf: leaf, tlsSCTs: TestSCTList.encode([valid, [0x01, 0xAA, 0xBB]]))
        defer { server.stop() }
        let facts = try probe(server, caFile: f.pki.caFile, keyring: f.keyring)
        XCTAssertNil(facts.error)
        XCTAssertEqual(Set(facts.ct.scts), [
            ObservedSCT(logID: f.logs[0].logIDBase64, timestamp: f.issued, source: .tls, status: .valid),
            ObservedSCT(logID: "", timestamp: Date(timeIntervalSince1970: 0), source: .tls, status: .invalid),
        ], "a version-2 SCT names no log OpenSSL can read, and cannot be checked")
    }

    func testProberWithoutKeyringCollectsNoSCTsButReportsCipherAndGroup() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0]))
        let server = try f.pki.server(leaf: leaf.certificate, extraArguments: ["-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256",
                                                                                "-groups", "X25519"])
        defer { server.stop() }
        let facts = try probe(server, caFile: f.pki.caFile, keyring: nil)
        XCTAssertNil(facts.error)
        XCTAssertFalse(facts.ct.collected)
        XCTAssertEqual(facts.ct.scts, [])
        XCTAssertEqual(facts.tlsCipher, "TLS_CHACHA20_POLY1305_SHA256")
        XCTAssertEqual(facts.tlsGroup, "X25519")
    }

    func testTLS12CipherAndCurveAreReported() throws {
        let f = try CTFixture.shared()
        let server = try f.pki.server(leaf: try f.plainLeaf(), extraArguments: ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256",
                                                                               "-groups", "P-384"])
        defer { server.stop() }
        let facts = try probe(server, caFile: f.pki.caFile, keyring: f.keyring)
        XCTAssertEqual(facts.tlsVersion, "TLSv1.2")
        XCTAssertEqual(facts.tlsCipher, "ECDHE-ECDSA-AES128-GCM-SHA256")
        XCTAssertEqual(facts.tlsGroup, "secp384r1")
        XCTAssertTrue(facts.ct.collected)
        XCTAssertEqual(facts.ct.scts, [], "a server without SCTs: collected, none found")
    }

    func testSCTsInAStapledOCSPResponseAreCollected() throws {
        let f = try CTFixture.shared()
        let leaf = try f.plainLeaf()
        let list = try TestSCTList.overCertificate(leaf, scts: f.scts([1, 2]))
        let server = try f.pki.server(leaf: leaf, ocspSCTs: list)
        defer { server.stop() }
        let facts = try probe(server, caFile: f.pki.caFile, keyring: f.keyring)
        XCTAssertNil(facts.error)
        XCTAssertEqual(Set(facts.ct.scts), Set([1, 2].map {
            ObservedSCT(logID: f.logs[$0].logIDBase64, timestamp: f.issued, source: .ocsp, status: .valid)
        }))
        XCTAssertEqual(facts.ct.scts.count, 2)
    }
}
