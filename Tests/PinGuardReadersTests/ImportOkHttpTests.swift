import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

final class ImportOkHttpTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func testExampleMergesPinsOfEveryMatchingPattern() throws {
        let file = "policies/sources/ApiClient.kt"
        let r = try PolicyImporter.importPolicy(format: .okhttp, contents: S.bytes(file), file: file,
                                                name: "okhttp", environment: "prod")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description),
                       ["api.example.com", "**.example.com", "*.uploads.example.org"])
        let api = try XCTUnwrap(S.rule(r, "api.example.com"))
        XCTAssertEqual(api.line, 13)
        XCTAssertEqual(api.policy.pins.map(\.hash), [h[0], h[1], h[2], h[3]])
        XCTAssertTrue(api.policy.pins.allSatisfy { $0.type == .spki && $0.scope == .any && $0.role == .primary })
        XCTAssertEqual(S.rule(r, "**.example.com")?.line, 14)
        XCTAssertEqual(S.rule(r, "**.example.com")?.policy.pins.map(\.line), [16, 17])
        XCTAssertEqual(S.rule(r, "*.uploads.example.org")?.policy.pins.map(\.hash), [h[4], h[5]])
        XCTAssertTrue(r.yaml.contains("# policies/sources/ApiClient.kt:19 .add(\"*.uploads.example.org\", …)"))
        XCTAssertTrue(r.yaml.contains("# policies/sources/ApiClient.kt:20 .add(\"*.uploads.example.org\", …)"))
        let e = try XCTUnwrap(S.evaluate(r, S.facts(host: "api.example.com", leaf: h[7], intermediate: h[2])))
        XCTAssertEqual(e.reason, .pinMatch, "the **.example.com pins apply to api.example.com too, as in OkHttp")
    }

    func testMalformedAndUnknownPins() throws {
        let r = try S.run(.okhttp, """
        CertificatePinner.Builder().add("api.example.com", "sha256/AAAA", "sha512/\(h[0])", "\(h[1])", "sha256/\(h[2])", "sha256/\(h[3])").build()
        """)
        XCTAssertEqual(S.findings(r, containing: "is not base64 of a 32-byte").count, 1)
        XCTAssertEqual(S.findings(r, containing: "must start with sha256/ or sha1/").count, 2)
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[2], h[3]])
    }

    func testUnpaddedAndURLSafeBase64IsReadAsOkioDoes() throws {
        let unpadded = String(h[1].dropLast()).replacingOccurrences(of: "/", with: "_")
        let r = try S.run(.okhttp, """
        CertificatePinner.Builder().add("api.example.com", "sha256/\(h[0])", "sha256/\(unpadded)").build()
        """)
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
        XCTAssertEqual(S.findings(r, containing: "non-canonical base64").first?.severity, .info)
    }

    func testJavaSourceWithConstantsAndABuilderVariable() throws {
        let r = try S.run(.okhttp, """
        import okhttp3.CertificatePinner;

        public final class Pins {
            static final String HOST = "api.example.com";
            private static final String PRIMARY = "sha256/\(h[0])";
            private static final String PREFIX = "sha256/";

            static CertificatePinner pinner() {
                CertificatePinner.Builder builder = new CertificatePinner.Builder();
                builder.add(HOST, PRIMARY, PREFIX + "\(h[1])");
                builder.add("*.example.com", new String[] {"sha256/\(h[2])", "sha256/\(h[3])"});
                builder.add("dynamic.example.com", pinFromConfig(), "sha256/\(h[4])");
                // builder.add("commented.example.com", "sha256/\(h[4])");
                /* builder.add("block.example.com", "sha256/\(h[4])"); */
                return builder.build();
            }
        }
        """, file: "Pins.java")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description),
                       ["api.example.com", "*.example.com", "dynamic.example.com"])
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[1], h[2], h[3]])
        XCTAssertEqual(S.rule(r, "api.example.com")?.line, 10)
        XCTAssertEqual(S.rule(r, "dynamic.example.com")?.policy.pins.map(\.hash), [h[4], h[2], h[3]])
        XCTAssertEqual(S.findings(r, containing: "pin argument is not a constant").first?.line, 12)
        XCTAssertNil(r.policySet.environments["prod"]?.rules.first { $0.pattern.domain.hasPrefix("commented") || $0.pattern.domain.hasPrefix("block") })
    }

    func testKotlinApplyBlockSpreadAndTemplates() throws {
        let r = try S.run(.okhttp, """
        val backupPins = arrayOf("sha256/\(h[1])", "sha256/\(h[2])")
        val pinner = CertificatePinner.Builder().apply {
            add("api.example.com", "sha256/\(h[0])", *backupPins)
            add("inline.example.com", *arrayOf("sha256/\(h[3])", "sha256/\(h[4])"))
            add("${env}.example.com", "sha256/\(h[3])")
            add(pattern = "named.example.com", "sha256/\(h[3])", "sha256/\(h[4])")
        }.build()
        val unrelated = mutableListOf<String>().apply { add("api.example.org") }
        """)
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[1], h[2]])
        XCTAssertEqual(S.rule(r, "inline.example.com")?.policy.pins.map(\.hash), [h[3], h[4]])
        XCTAssertEqual(S.findings(r, containing: "pattern of this add() is not a constant").first?.line, 5)
        XCTAssertNotNil(S.rule(r, "named.example.com"))
        XCTAssertNil(r.policySet.environments["prod"]?.rules.first { $0.pattern.domain == "api.example.org" })
    }

    func testBuilderVariableWithTypeAnnotation() throws {
        let r = try S.run(.okhttp, """
        val count: Int = 3
        val builder: CertificatePinner.Builder = CertificatePinner.Builder()
        builder.add("api.example.com", PINS_FROM_ELSEWHERE)
        builder.add("www.example.com", "sha256/\(h[0])", "sha256/\(h[1])")
        """)
        XCTAssertEqual(S.findings(r, containing: "pin argument is not a constant").first?.line, 3,
                       "an add() on a builder variable is recognised even when its arguments are not constants")
        XCTAssertEqual(S.rule(r, "www.example.com")?.policy.pins.count, 2)
    }

    func testOneLabelAndDeepPatternMeetInAnExactRule() throws {
        let r = try S.run(.okhttp, """
        CertificatePinner.Builder()
            .add("*.example.com", "sha256/\(h[0])", "sha256/\(h[1])")
            .add("**.api.example.com", "sha256/\(h[2])", "sha256/\(h[3])")
            .build()
        """)
        let meet = try XCTUnwrap(S.rule(r, "api.example.com"))
        XCTAssertEqual(Set(meet.policy.pins.map(\.hash)), Set(h[0...3]))
        XCTAssertEqual(S.rule(r, "*.example.com")?.policy.pins.count, 2)
        XCTAssertEqual(S.rule(r, "**.api.example.com")?.policy.pins.count, 2)
        for (host, pin, ok) in [("api.example.com", h[0], true), ("api.example.com", h[3], true),
                                ("www.example.com", h[3], false), ("v1.api.example.com", h[0], false)] {
            let e = try XCTUnwrap(S.evaluate(r, S.facts(host: host, leaf: pin, intermediate: h[7])))
            XCTAssertEqual(e.verdict == .accept, ok, "\(host) \(pin)")
        }
        S.assertRoundTrip(r)
    }

    func testNothingToImportThrows() {
        XCTAssertNotNil(S.failure(.okhttp, "class A { fun f() = listOf(1).add(2) }"))
        XCTAssertNotNil(S.failure(.okhttp, "fun client(p: CertificatePinner) = OkHttpClient.Builder().certificatePinner(p).build()"))
        let allBad = S.failure(.okhttp, "CertificatePinner.Builder().add(\"a.example.com\", \"sha1/AAAA\").build()")
        XCTAssertEqual(allBad?.findings.filter { $0.severity == .error }.count, 2)
    }
}
