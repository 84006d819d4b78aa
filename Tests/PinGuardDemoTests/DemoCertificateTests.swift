import Foundation
import PinGuardCrypto
import PinGuardDemo
import XCTest

/// The demo's in-memory PKI: a certificate issued for a key carries that key, names its issuer, holds the
/// validity it was asked for, and reads back the same from its PEM and its DER, for every kind of key.
final class DemoCertificateTests: XCTestCase {
    private func root(_ key: DemoKey) throws -> DemoCertificate {
        try DemoCertificate.issue(commonName: "Demo Test Root", dnsName: nil, key: key, issuer: nil, isCA: true,
                                  validFrom: -3600, validUntil: 3650 * 86_400, serial: 1)
    }

    func testALeafCarriesItsKeyAndNamesItsIssuer() throws {
        let root = try root(try DemoKey())
        let key = try DemoKey()
        let leaf = try DemoCertificate.issue(commonName: "api.demo.test", dnsName: "api.demo.test", key: key, issuer: root, isCA: false,
                                             validFrom: -3600, validUntil: 90 * 86_400, serial: 4242)
        let facts = try leaf.facts
        XCTAssertEqual(facts.spkiSHA256, key.spkiSHA256)
        XCTAssertNotEqual(facts.spkiSHA256, root.key.spkiSHA256)
        XCTAssertTrue(facts.subject.contains("CN=api.demo.test"), facts.subject)
        XCTAssertTrue(facts.issuer.contains("CN=Demo Test Root"), facts.issuer)
        XCTAssertFalse(facts.isCA)
        let rootFacts = try root.facts
        XCTAssertTrue(rootFacts.isCA)
        XCTAssertEqual(rootFacts.subject, rootFacts.issuer, "a root names itself")
        XCTAssertEqual(facts.notAfter.timeIntervalSince(facts.notBefore), 3600 + 90 * 86_400, accuracy: 2)
    }

    func testPEMAndDERReadBackAsTheSameCertificate() throws {
        let leaf = try root(try DemoKey())
        let fromPEM = try CertificateReader.load(Array(leaf.pem.utf8), file: "demo.pem")
        let fromDER = try CertificateReader.load(leaf.der, file: "demo.der")
        XCTAssertEqual(fromPEM.count, 1)
        XCTAssertEqual(fromPEM, fromDER)
        XCTAssertEqual(fromPEM.first?.certSHA256, try leaf.facts.certSHA256)
    }

    func testEveryKindOfKeyCertifiesWithItsType() throws {
        let kinds: [(DemoKey.Kind, String)] = [(.p256, "EC-256"), (.p384, "EC-384"), (.rsa2048, "RSA-2048"), (.rsaPSS2048, "RSA-PSS-2048"),
                                               (.ed25519, "ED25519-256")]
        for (kind, type) in kinds {
            let key = try DemoKey(kind)
            let facts = try root(key).facts
            XCTAssertEqual(facts.keyType, type, "\(kind)")
            XCTAssertEqual(facts.spkiSHA256, key.spkiSHA256, "\(kind)")
        }
    }
}
