import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// A list read for some certificates (`only:`) walks the entries without parsing them all: it must say exactly what
/// the full read says about those certificates, keep no other entry, and refuse what the full read refuses.
final class CRLLeanReadingTests: XCTestCase {
    let pki = try! RevocationPKI(base: "http://127.0.0.1:9")

    func key(_ c: DemoCertificate) throws -> [UInt8] { try XCTUnwrap(try c.facts.publicKeyDER, "a CA keeps its key") }

    func testReadingForSomeSerialsAgreesWithTheFullReadOnThoseSerials() throws {
        let entries: [DemoCRL.Entry] = (1...300).map { .init(serial: $0 * 7, revokedAt: -Double($0) * 60, reason: $0 % 3 == 0 ? .keyCompromise : nil) }
        let crl = try DemoCRL.make(issuer: pki.intermediate, revoked: entries)
        let full = try CRLReader.read(crl, issuerPublicKeyDER: key(pki.intermediate)).get()
        let asked: Set<String> = ["7", "15", "D2", "834", "FFFF", "0"]
        let lean = try CRLReader.read(crl, issuerPublicKeyDER: key(pki.intermediate), only: asked).get()
        XCTAssertEqual(Set(lean.revoked.keys), Set(full.revoked.keys).intersection(asked), "the asked serials that are listed, no other")
        for (serial, entry) in lean.revoked { XCTAssertEqual(entry, full.revoked[serial], serial) }
        XCTAssertEqual(lean.covered, asked)
        XCTAssertEqual(lean.issuer, full.issuer)
        XCTAssertEqual(lean.thisUpdate, full.thisUpdate)
        XCTAssertEqual(lean.nextUpdate, full.nextUpdate)
        XCTAssertEqual(lean.isDelta, full.isDelta)
        XCTAssertEqual(lean.scope, full.scope)
    }

    func testAListWithoutEntriesAndAListInPEMReadTheSame() throws {
        let empty = try DemoCRL.make(issuer: pki.intermediate)
        let lean = try CRLReader.read(empty, issuerPublicKeyDER: key(pki.intermediate), only: ["64"]).get()
        XCTAssertEqual(lean.revoked, [:])
        let listed = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)])
        let fromPEM = try CRLReader.read(Array(DemoCRL.pem(listed).utf8), issuerPublicKeyDER: key(pki.intermediate), only: ["64"]).get()
        XCTAssertNotNil(fromPEM.revoked["64"])
    }

    func testAForgedOrDamagedListIsRefusedAsTheFullReadRefusesIt() throws {
        let forged = try DemoCRL.make(issuer: pki.intermediate, signer: pki.stranger, revoked: [.init(serial: 100)])
        XCTAssertEqual(reason(forged), .badSignature)
        var flipped = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)])
        flipped[flipped.count / 2] ^= 0x01
        XCTAssertNotNil(reason(flipped), "a changed byte never verifies")
        XCTAssertEqual(reason(Array(flipped.prefix(40))), .unparseable)
        XCTAssertEqual(reason([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]), .unparseable)
        let byRoot = try DemoCRL.make(issuer: pki.root, revoked: [.init(serial: 100)])
        XCTAssertEqual(reason(byRoot), .badSignature, "the root's list does not verify with the intermediate's key")
    }

    func reason(_ bytes: [UInt8]) -> RevocationUnknown? {
        guard case .failure(let why) = CRLReader.read(bytes, issuerPublicKeyDER: (try? key(pki.intermediate)) ?? [], only: ["64"]) else { return nil }
        return why
    }
}

/// The lean read against OpenSSL's full parse on the fuzz seeds, which hold the shapes a fuzzer found them to
/// differ on (a revoked list tagged 0x10, a SEQUENCE with its constructed bit clear, which OpenSSL accepts).
final class CRLLeanReadingSeedTests: XCTestCase {
    func testTheLeanReadFindsWhatOpenSSLsParseFindsOnEverySeed() throws {
        let folder = Repository.root.appendingPathComponent("fuzz/seeds/crl")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertTrue(files.contains("entries-sequence-tag-0x10.der"))
        var compared = 0
        for name in files {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            guard let full = CRLReader.unverifiedFacts(bytes) else { continue }
            let asked = Set(full.revoked.keys.filter { !$0.hasPrefix("-") })
            let lean = try XCTUnwrap(CRLReader.unverifiedLeanFacts(bytes, only: asked), name)
            for serial in asked { XCTAssertEqual(lean.revoked[serial], full.revoked[serial], "\(name): serial \(serial)") }
            compared += asked.count
        }
        XCTAssertGreaterThanOrEqual(compared, 4, "the seeds list entries")
    }
}
