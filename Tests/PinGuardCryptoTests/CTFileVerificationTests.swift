import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardCTTestSupport
import PinGuardDemo
import XCTest

/// Embedded SCTs of certificate files, made by in-test logs exactly as RFC 6962 says and checked by
/// OpenSSL's own verifier: an independent implementation of the signed data agrees with ours.
final class CTFileVerificationTests: XCTestCase {
    func testEmbeddedSCTsFromListedLogsVerifyValid() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0, 1, 2]))
        let scts = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: f.pki.intermediate.der,
                                                keyring: f.keyring, at: Date())
        XCTAssertEqual(scts, (0...2).map {
            ObservedSCT(logID: f.logs[$0].logIDBase64, timestamp: f.issued, source: .embedded, status: .valid)
        })
    }

    func testCorruptedSignatureIsInvalidAndUnlistedLogIsUnknown() throws {
        let f = try CTFixture.shared()
        let spoiled = TestSCT(log: f.logs[1], timestamp: f.issued, corruptSignature: true)
        let leaf = try f.embeddedLeaf(scts: f.scts([0]) + [spoiled] + f.scts([3]))
        let scts = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: f.pki.intermediate.der,
                                                keyring: f.keyring, at: Date())
        XCTAssertEqual(scts.map(\.status), [.valid, .invalid, .unknownLog])
        XCTAssertEqual(scts.map(\.logID), [0, 1, 3].map { f.logs[$0].logIDBase64 })
    }

    func testEmbeddedSCTsWithoutTheIssuerAreInvalid() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0, 1]))
        let scts = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: nil, keyring: f.keyring, at: Date())
        XCTAssertEqual(scts.map(\.status), [.invalid, .invalid])
    }

    func testEmbeddedSCTsCheckedWithAnotherIssuerKeyAreInvalid() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0]))
        // The signed precertificate entry holds the issuer's key hash: the root's key is not it.
        let scts = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: f.pki.root.der, keyring: f.keyring, at: Date())
        XCTAssertEqual(scts.map(\.status), [.invalid])
    }

    func testSCTDatedAfterTheValidationTimeIsInvalidEvenWhenAlreadyVerified() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([2]))
        let later = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: f.pki.intermediate.der,
                                                 keyring: f.keyring, at: f.issued.addingTimeInterval(60))
        XCTAssertEqual(later.map(\.status), [.valid])
        // The verdict remembered for the later time must not leak to a time before the SCT.
        let earlier = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: f.pki.intermediate.der,
                                                   keyring: f.keyring, at: f.issued.addingTimeInterval(-60))
        XCTAssertEqual(earlier.map(\.status), [.invalid])
    }

    func testAChainAlreadyVerifiedIsRememberedOnce() throws {
        let f = try CTFixture.shared()
        let keyring = try CTLogKeyring(logs: [f.logs[0].ctLog(operatorName: "A"), f.logs[1].ctLog(operatorName: "B")])
        let leaf = try f.embeddedLeaf(scts: f.scts([0, 1, 3]))
        for _ in 0..<3 {
            let scts = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: f.pki.intermediate.der,
                                                    keyring: keyring, at: Date())
            XCTAssertEqual(scts.map(\.status), [.valid, .valid, .unknownLog])
        }
        XCTAssertEqual(keyring.rememberedVerdicts, 2, "two signature verdicts; the unknown log's needs no signature check")
        _ = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: nil, keyring: keyring, at: Date())
        XCTAssertEqual(keyring.rememberedVerdicts, 4, "without the issuer the verdicts differ, so they are kept apart")
    }

    func testOneKeyringServesManyThreadsAtOnce() throws {
        let f = try CTFixture.shared()
        let leaves = try (0..<4).map { _ in try f.embeddedLeaf(scts: f.scts([0, 1, 2, 3])).certificate.der }
        let issuer = f.pki.intermediate.der
        let results = SCTStatusSlots(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let scts = try? SCTVerifier.embeddedSCTs(leaf: leaves[i % 4], issuer: issuer, keyring: f.keyring, at: Date())
            results.set(i, scts?.map(\.status) ?? [])
        }
        XCTAssertEqual(Set(results.values), [[.valid, .valid, .valid, .unknownLog]])
    }

    func testMalformedEmbeddedListYieldsNoSCTs() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0, 1]), malformedList: true)
        let scts = try SCTVerifier.embeddedSCTs(leaf: leaf.certificate.der, issuer: f.pki.intermediate.der,
                                                keyring: f.keyring, at: Date())
        XCTAssertEqual(scts, [], "a list that does not parse is dropped whole, as OpenSSL does")
    }

    func testPEMFilesAreReadLikeDER() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([1]))
        let scts = try SCTVerifier.embeddedSCTs(leaf: Array(leaf.certificate.pem.utf8), issuer: Array(f.pki.intermediate.pem.utf8),
                                                keyring: f.keyring, at: Date())
        XCTAssertEqual(scts.map(\.status), [.valid])
    }

    func testACertificateWithoutSCTsHasNone() throws {
        let f = try CTFixture.shared()
        let scts = try SCTVerifier.embeddedSCTs(leaf: try f.plainLeaf().der, issuer: f.pki.intermediate.der, keyring: f.keyring, at: Date())
        XCTAssertEqual(scts, [])
    }

    func testKeyringNamesTheLogWhoseKeyDoesNotRead() throws {
        let f = try CTFixture.shared()
        let broken = CTLog(logID: "bm90IGEga2V5", key: "bm90IGEga2V5", description: "Broken 'Log'", operatorName: "X", state: .usable)
        XCTAssertThrowsError(try CTLogKeyring(logs: [f.logs[0].ctLog(operatorName: "A"), broken])) { error in
            XCTAssertTrue("\(error)".contains("CT log Broken 'Log' (bm90IGEga2V5): key is not a DER SubjectPublicKeyInfo"), "\(error)")
        }
        let notBase64 = CTLog(logID: "x", key: "%%%", description: "Odd", operatorName: "X", state: .usable)
        XCTAssertThrowsError(try CTLogKeyring(logs: [notBase64])) { XCTAssertTrue("\($0)".contains("CT log Odd (x): key is not base64"), "\($0)") }
    }

    func testKeyringKeepsALogListedTwiceOnce() throws {
        let f = try CTFixture.shared()
        let keyring = try CTLogKeyring(logs: [f.logs[0].ctLog(operatorName: "A"), f.logs[0].ctLog(operatorName: "A"),
                                              f.logs[1].ctLog(operatorName: "B")])
        XCTAssertEqual(keyring.count, 2)
        XCTAssertEqual(try CTLogKeyring(logs: []).count, 0)
    }
}
