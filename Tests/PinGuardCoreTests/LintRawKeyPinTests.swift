import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// Raw-key pins: the bytes `DER.subjectPublicKeyBits` finds, and the findings `RawKeyPinCheck` makes of them.
final class LintRawKeyPinTests: XCTestCase {
    func testPublicKeyBitsAreTheBitStringContent() throws {
        // SEQUENCE { SEQUENCE { OID 1.2.840.10045.2.1 }, BIT STRING (0 unused bits) 04 01 02 }
        let spki: [UInt8] = [0x30, 0x11, 0x30, 0x09, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                             0x03, 0x04, 0x00, 0x04, 0x01, 0x02]
        XCTAssertEqual(Array(try DER.subjectPublicKeyBits(ofSPKI: spki[...])), [0x04, 0x01, 0x02])
        var prefixed: [UInt8] = [0xff, 0xff]
        prefixed += spki
        XCTAssertEqual(Array(try DER.subjectPublicKeyBits(ofSPKI: prefixed[2...])), [0x04, 0x01, 0x02], "slices keep their indices")
        var unused = spki
        unused[15] = 0x03
        XCTAssertThrowsError(try DER.subjectPublicKeyBits(ofSPKI: unused[...]))
        XCTAssertThrowsError(try DER.subjectPublicKeyBits(ofSPKI: spki.dropLast()[...]))
    }

    func testRawKeyPinIsAnErrorUnlessTheSPKIPinIsAlsoThere() throws {
        let h = ImportTestSupport.h
        func cert(_ depth: Int, _ subject: String, spki: String, raw: String) -> ChainCertificate {
            var c = ChainCertificate(depth: depth, subject: subject, issuer: "CN=issuer", notBefore: Date(), notAfter: Date(),
                                     spkiSHA256: spki, certSHA256: spki)
            c.rawKeySHA256 = raw
            return c
        }
        let chain = [cert(0, "CN=leaf", spki: h[0], raw: h[1]), cert(1, "CN=int", spki: h[2], raw: h[3])]
        let set = try PolicyParser.parse("""
        name: app
        environments:
          prod:
            policies:
              - pattern: a.example.com
                policy: {pins: [{hash: "\(h[1])"}, {hash: "\(h[5])", role: backup}]}
              - pattern: b.example.com
                policy: {pins: [{hash: "\(h[3])", type: ca}, {hash: "\(h[2])", type: ca, role: backup}]}
              - pattern: c.example.com
                policy: {pins: [{hash: "\(h[0])"}, {hash: "\(h[5])", role: backup}]}
        """, file: "app.yml")
        let f = RawKeyPinCheck.findings([set], chain: chain, chainFile: "chain.pem")
        XCTAssertEqual(f.map { "\($0.pattern ?? "") \($0.severity.rawValue) \($0.line ?? 0)" },
                       ["a.example.com error 6", "b.example.com warning 8"])
        XCTAssertTrue(f[0].message.contains("its SPKI pin is \(h[0])"), f[0].message)
        XCTAssertTrue(f[1].message.contains("certificate 2 in chain.pem (subject CN=int)"), f[1].message)
        XCTAssertEqual(f[0].rule, .rawKeyPin)
    }
}
