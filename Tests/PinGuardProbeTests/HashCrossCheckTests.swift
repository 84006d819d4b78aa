import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import PinGuardProbeTestSupport
import XCTest

/// The pins the probe computes are byte-identical to OpenSSL's command-line pipelines (docs/reference.md, Policy files and Evaluation), for every
/// key type, whether the certificate came from a live handshake, a PEM file or a DER file.
final class HashCrossCheckTests: XCTestCase {
    func testRSALeaf() throws { try crossCheck("rsa", keyType: "RSA-2048") }
    func testRSAPSSLeaf() throws { try crossCheck("rsapss", keyType: "RSA-PSS-2048") }
    func testP256Leaf() throws { try crossCheck("valid", keyType: "EC-256") }
    func testP384Leaf() throws { try crossCheck("p384", keyType: "EC-384") }
    func testEd25519Leaf() throws { try crossCheck("ed25519", keyType: "ED25519-256") }

    func testIntermediateAndRootHashesAgreeWithOpenSSL() throws {
        let s = try LiveServers.shared()
        let facts = s.probe("valid")
        XCTAssertNil(facts.error)
        let chain = facts.verifiedChain
        XCTAssertEqual(chain.count, 3)
        guard chain.count == 3 else { return }
        for (cert, file) in [(chain[1], s.pki.intermediate), (chain[2], s.pki.root)] {
            XCTAssertEqual(cert.spkiSHA256, try OpenSSLTool.spkiSHA256(certificate: file), file)
            XCTAssertEqual(cert.certSHA256, try OpenSSLTool.certSHA256(certificate: file), file)
            XCTAssertEqual(try s.fileFacts(file).first?.spkiSHA256, cert.spkiSHA256, file)
        }
        let bundle = try s.fileFacts(s.pki.chain("valid"))
        XCTAssertEqual(bundle.map(\.certSHA256), facts.servedChain.map(\.certSHA256),
                       "a PEM bundle loads in file order, like the served chain")
    }

    /// The backup leaf was issued for the spare key: its SPKI pin is the key's, so a pin made from the
    /// key before the rotation matches the certificate after it.
    func testBackupLeafCarriesTheSpareKeysSPKI() throws {
        let s = try LiveServers.shared()
        let fromKey = try OpenSSLTool.spkiSHA256(privateKey: s.pki.backupSpareKey)
        XCTAssertEqual(s.probe("backup").servedChain.first?.spkiSHA256, fromKey)
        XCTAssertEqual(try OpenSSLTool.spkiSHA256(certificate: s.pki.certificate("backup")), fromKey)
    }

    private func crossCheck(_ name: String, keyType: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let s = try LiveServers.shared()
        let pem = s.pki.certificate(name)
        let wantSPKI = try OpenSSLTool.spkiSHA256(certificate: pem)
        let wantCert = try OpenSSLTool.certSHA256(certificate: pem)
        XCTAssertNotEqual(wantSPKI, wantCert, file: file, line: line)

        let live = s.probe(name)
        XCTAssertNil(live.error, file: file, line: line)
        XCTAssertTrue(live.trusted, live.trustError ?? "", file: file, line: line)
        let leaf = try XCTUnwrap(live.servedChain.first, file: file, line: line)
        XCTAssertEqual(leaf.spkiSHA256, wantSPKI, "\(name): live SPKI", file: file, line: line)
        XCTAssertEqual(leaf.spkiSHA1, try OpenSSLTool.spkiSHA1(certificate: pem), "\(name): OkHttp's sha1/ pin",
                       file: file, line: line)
        XCTAssertEqual(leaf.certSHA256, wantCert, "\(name): live certificate", file: file, line: line)
        XCTAssertEqual(leaf.keyType, keyType, file: file, line: line)

        let fromPEM = try XCTUnwrap(try s.fileFacts(pem).first, file: file, line: line)
        XCTAssertEqual(fromPEM.spkiSHA256, wantSPKI, "\(name): PEM SPKI", file: file, line: line)
        XCTAssertEqual(fromPEM.certSHA256, wantCert, "\(name): PEM certificate", file: file, line: line)

        let der = try s.pki.der(of: pem)
        let fromDER = try XCTUnwrap(try s.fileFacts(der).first, file: file, line: line)
        XCTAssertEqual(fromDER.spkiSHA256, wantSPKI, "\(name): DER SPKI", file: file, line: line)
        XCTAssertEqual(fromDER.certSHA256, wantCert, "\(name): DER certificate", file: file, line: line)
        XCTAssertEqual(fromDER, fromPEM, file: file, line: line)

        // The pin of the private key is the certificate's SPKI pin too.
        XCTAssertEqual(try OpenSSLTool.spkiSHA256(privateKey: s.pki.key(name)), wantSPKI, file: file, line: line)
    }
}
