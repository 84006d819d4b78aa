import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// CRLs made with OpenSSL's CRL API at test time, read as downloaded bytes: a list is believed only when its
/// signature verifies with the issuer's key, and then answers for a certificate by RFC 5280's rules.
final class CRLReaderTests: XCTestCase {
    let pki = try! RevocationPKI(base: "http://127.0.0.1:9")

    func key(_ c: DemoCertificate) throws -> [UInt8] { try XCTUnwrap(try c.facts.publicKeyDER, "a CA keeps its key") }

    /// Whether `date` is `offset` seconds from a moment between `before` and `after`. CRL times are whole seconds
    /// from OpenSSL's `time(NULL)`, which reads the kernel's coarse clock: it can lag `Date()` by a tick, so a list
    /// made just after a second began can carry the second before `before`.
    func isOffset(_ date: Date, _ offset: TimeInterval, between before: Date, and after: Date) -> Bool {
        date >= before.addingTimeInterval(offset - 2) && date <= after.addingTimeInterval(offset + 1)
    }

    func testALeafListedByItsIntermediateIsRevokedWithTimeAndReason() throws {
        let before = Date()
        let crl = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100, revokedAt: -7200, reason: .keyCompromise)])
        let after = Date()
        let list = try CRLReader.read(crl, issuerPublicKeyDER: key(pki.intermediate)).get()
        let leaf = try pki.chain("revoked")[0]
        guard case .revoked(let at, let reason) = RevocationJudge.judge(leaf, on: list, now: Date()) else {
            return XCTFail("not revoked: \(RevocationJudge.judge(leaf, on: list, now: Date()))")
        }
        XCTAssertTrue(isOffset(at, -7200, between: before, and: after), "revoked at \(at), two hours before the list was made")
        XCTAssertEqual(reason, .keyCompromise)
        XCTAssertEqual(list.issuer, leaf.issuer)
    }

    func testAnUnlistedLeafIsNotRevokedUntilTheListsNextUpdate() throws {
        let before = Date()
        let crl = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)], nextUpdate: 3600)
        let after = Date()
        let list = try CRLReader.read(crl, issuerPublicKeyDER: key(pki.intermediate)).get()
        guard case .notRevoked(let next) = RevocationJudge.judge(try pki.chain("healthy")[0], on: list, now: Date()) else {
            return XCTFail("the healthy leaf is not listed")
        }
        XCTAssertTrue(isOffset(next, 3600, between: before, and: after), "next update \(next), an hour after the list was made")
    }

    func testAnIntermediateListedByItsRootIsRevoked() throws {
        let crl = try DemoCRL.make(issuer: pki.root, revoked: [.init(serial: RevocationPKI.intermediateSerial, reason: .cACompromise)])
        let list = try CRLReader.read(crl, issuerPublicKeyDER: key(pki.root)).get()
        let state = RevocationJudge.judge(try pki.chain("healthy")[1], on: list, now: Date())
        XCTAssertTrue(state.isRevoked, "\(state)")
    }

    func testAListInPEMReadsAsItsDER() throws {
        let crl = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)])
        let fromPEM = try CRLReader.read(Array(DemoCRL.pem(crl).utf8), issuerPublicKeyDER: key(pki.intermediate)).get()
        XCTAssertEqual(fromPEM, try CRLReader.read(crl, issuerPublicKeyDER: key(pki.intermediate)).get())
    }

    func testAListSignedByAStrangerKeyIsNeverBelieved() throws {
        let forged = try DemoCRL.make(issuer: pki.intermediate, signer: pki.stranger, revoked: [.init(serial: 101)])
        XCTAssertEqual(CRLReader.read(forged, issuerPublicKeyDER: try key(pki.intermediate)), .failure(.badSignature))
    }

    func testAListWithOneFlippedSignatureByteIsNeverBelieved() throws {
        var crl = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)])
        crl[crl.count - 3] ^= 0x01
        XCTAssertEqual(CRLReader.read(crl, issuerPublicKeyDER: try key(pki.intermediate)), .failure(.badSignature))
    }

    func testBytesThatAreNoCRLAreUnparseable() throws {
        let key = try key(pki.intermediate)
        for bytes in [[UInt8](), Array("<html>not found</html>".utf8), [0x30, 0x82, 0xFF, 0xFF, 0x30], Array(pki.intermediate.der)] {
            XCTAssertEqual(CRLReader.read(bytes, issuerPublicKeyDER: key), .failure(.unparseable), "\(bytes.prefix(8))")
        }
    }

    func testAListPastItsNextUpdateIsExpired() throws {
        let crl = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)], thisUpdate: -7200, nextUpdate: -60)
        let list = try CRLReader.read(crl, issuerPublicKeyDER: key(pki.intermediate)).get()
        XCTAssertEqual(RevocationJudge.judge(try pki.chain("revoked")[0], on: list, now: Date()), .unknown(.expired))
    }

    func testAListOfAnotherIssuerDoesNotAnswerForTheLeaf() throws {
        let crl = try DemoCRL.make(issuer: pki.root, revoked: [.init(serial: 100)])
        let list = try CRLReader.read(crl, issuerPublicKeyDER: key(pki.root)).get()
        XCTAssertEqual(RevocationJudge.judge(try pki.chain("revoked")[0], on: list, now: Date()), .unknown(.wrongIssuer))
    }

    func testACertificatesDistributionPointsAreReadAndOnlyCAsKeepTheirKey() throws {
        let chain = try pki.chain("revoked")
        XCTAssertEqual(chain[0].crlDistributionPoints, [pki.intermediateCRLURL])
        XCTAssertEqual(chain[1].crlDistributionPoints, [pki.rootCRLURL])
        XCTAssertEqual(chain[2].crlDistributionPoints, [])
        XCTAssertNil(chain[0].publicKeyDER)
        XCTAssertEqual(chain[1].publicKeyDER, pki.intermediate.key.publicKeyDER)
    }

    func testAnIssuingDistributionPointIsReadFromAListMadeByOpensslCA() throws {
        let seed = Repository.root.appendingPathComponent("fuzz/seeds/crl/idp-some-reasons.der")
        let list = try XCTUnwrap(CRLReader.unverifiedFacts(Array(try Data(contentsOf: seed))))
        XCTAssertEqual(list.scope?.uris, ["http://127.0.0.1/int.crl"])
        XCTAssertEqual(list.scope?.onlySomeReasons, true)
        XCTAssertEqual(list.revoked["0A"]?.reason, .keyCompromise)
        XCTAssertEqual(list.revoked.count, 2)
        XCTAssertEqual(list.unknownCriticalExtensions, [], "the issuing distribution point is understood")
    }
}
