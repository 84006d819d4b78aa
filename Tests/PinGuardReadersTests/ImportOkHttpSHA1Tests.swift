import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// OkHttp 3 and 4 accept `sha1/` pins and match them against the SHA-1 of each certificate's
/// SubjectPublicKeyInfo (`CertificatePinner.Pin`): they import, judge and round-trip as such.
final class ImportOkHttpSHA1Tests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h
    /// Sample SHA-1 digests (base64 of 20 bytes).
    let sha1 = ["9lyQwHlQ5X4zGr2YF4P8s2J7eEk=", "b1YkK4M2bnXwN0cH8tY5a9pQ3rE="]

    func testSha1PinsImportWithTheirAlgorithmAndLine() throws {
        let r = try S.run(.okhttp, """
        val pinner = CertificatePinner.Builder()
            .add("api.example.com",
                 "sha1/\(sha1[0])",
                 "sha256/\(h[0])",
                 "sha1/\(sha1[1])")
            .add("old.example.com", "sha1/\(sha1[1])")
            .build()
        """, file: "Pins.kt")
        XCTAssertTrue(r.findings.filter { $0.severity == .error }.isEmpty, "\(r.findings)")
        let api = try XCTUnwrap(S.rule(r, "api.example.com"))
        XCTAssertEqual(api.policy.pins.map(\.line), [3, 4, 5])
        XCTAssertEqual(api.policy.pins.map(\.algorithm), [.sha1, .sha256, .sha1])
        XCTAssertEqual(api.policy.pins.map(\.hash), [sha1[0], h[0], sha1[1]])
        XCTAssertEqual(S.rule(r, "old.example.com")?.policy.pins.map(\.algorithm), [.sha1])
        XCTAssertTrue(r.yaml.contains("hash: \"\(sha1[0])\", algorithm: sha1"), r.yaml)
        S.assertRoundTrip(r)
    }

    func testSha1PinMatchesTheSha1OfTheSubjectPublicKeyInfo() throws {
        let r = try S.run(.okhttp, """
        CertificatePinner.Builder().add("api.example.com", "sha1/\(sha1[0])", "sha256/\(h[5])").build()
        """)
        var facts = S.facts(host: "api.example.com", leaf: h[1], intermediate: h[2])
        facts.servedChain[1].spkiSHA1 = sha1[0]
        facts.verifiedChain[1].spkiSHA1 = sha1[0]
        let accepted = try XCTUnwrap(S.evaluate(r, facts))
        XCTAssertEqual(accepted.reason, .pinMatch)
        XCTAssertEqual(accepted.matchedPins.map(\.depths), [[1]])
        XCTAssertEqual(accepted.reservePins.map(\.hash), [h[5]])

        facts.servedChain[1].spkiSHA1 = sha1[1]
        facts.verifiedChain[1].spkiSHA1 = sha1[1]
        XCTAssertEqual(S.evaluate(r, facts)?.reason, .pinMismatch)
    }

    func testSha1PinNeverMatchesASha256HashOfTheSameBytes() {
        let pin = Pin(type: .spki, hash: sha1[0], algorithm: .sha1)
        XCTAssertTrue(Evaluator.matches([pin], in: [S.cert(0, spki: sha1[0])]).isEmpty, "a SHA-1 pin is compared with the SHA-1 only")
        var c = S.cert(0, spki: h[0])
        c.spkiSHA1 = sha1[0]
        XCTAssertEqual(Evaluator.matches([pin], in: [c]).count, 1)
        XCTAssertTrue(Evaluator.matches([Pin(type: .spki, hash: sha1[0])], in: [c]).isEmpty)
    }

    func testSha1PinOfTheWrongLengthIsReportedAsOkHttpNeverMatchesIt() throws {
        let r = try S.run(.okhttp, """
        CertificatePinner.Builder().add("api.example.com", "sha1/\(h[0])", "sha256/\(h[1])", "sha256/\(h[2])").build()
        """)
        XCTAssertEqual(S.findings(r, containing: "is not base64 of a 20-byte SHA-1 digest").map(\.line), [1])
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[1], h[2]])
    }

    func testPolicyFilesReadTheAlgorithm() throws {
        func parse(_ pin: String) throws -> Pin? {
            try PolicyParser.parse("""
            name: app
            environments:
              prod:
                policies:
                  - pattern: api.example.com
                    policy: {pins: [\(pin)]}
            """, file: "p.yml").environments["prod"]?.rules.first?.policy.pins.first
        }
        XCTAssertEqual(try parse("{hash: \"\(sha1[0])\", algorithm: sha1}")?.algorithm, .sha1)
        XCTAssertEqual(try parse("{hash: \"sha1/\(sha1[0])\", algorithm: sha1}")?.hash, sha1[0])
        XCTAssertEqual(try parse("{hash: \"\(h[0])\"}")?.algorithm, .sha256)
        XCTAssertThrowsError(try parse("{hash: \"\(h[0])\", algorithm: sha1}")) {
            XCTAssertTrue("\($0)".contains("is not a base64 SHA-1 hash"), "\($0)")
        }
        XCTAssertThrowsError(try parse("{hash: \"\(sha1[0])\"}")) {
            XCTAssertTrue("\($0)".contains("is not a base64 SHA-256 hash"), "\($0)")
        }
        XCTAssertThrowsError(try parse("{type: certificate, hash: \"\(sha1[0])\", algorithm: sha1}")) {
            XCTAssertTrue("\($0)".contains("use type spki or ca"), "\($0)")
        }
    }
}
