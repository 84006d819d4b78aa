import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// TrustKit configured in Swift or Objective-C code, non-canonical base64 pins, constants that end a block,
/// values supplied from outside the file, and files given under the wrong format.
final class ImportTrustKitSourceTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func importFile(_ relative: String, format: PolicyImportFormat = .trustkit) throws -> ImportResult {
        try PolicyImporter.importPolicy(format: format, contents: S.bytes(relative), file: relative, name: "app", environment: "prod")
    }

    func testSwiftAndObjectiveCConfigurationsMatchTheInfoPlistImport() throws {
        let plist = try importFile("policies/sources/trustkit-Info.plist")
        for source in ["Tests/Fixtures/import/PinningSetup.swift", "Tests/Fixtures/import/AppDelegate.m"] {
            let r = try importFile(source)
            XCTAssertEqual(r.policySet.strippingSourcePositions().environments, plist.policySet.strippingSourcePositions().environments, source)
            func warnings(_ r: ImportResult) -> [String] { r.findings.filter { $0.severity != .info }.map { "\($0.severity) \($0.message)" } }
            XCTAssertEqual(warnings(r), warnings(plist), source)
            S.assertRoundTrip(r)
        }
        let swift = try importFile("Tests/Fixtures/import/PinningSetup.swift")
        XCTAssertEqual(S.rule(swift, "api.example.com")?.line, 14)
        XCTAssertEqual(S.rule(swift, "api.example.com")?.policy.pins.map(\.line), [18, 19])
        XCTAssertEqual(S.rule(swift, "telemetry.example.net")?.line, 31)
        let objc = try importFile("Tests/Fixtures/import/AppDelegate.m")
        XCTAssertEqual(S.rule(objc, "api.example.com")?.line, 14, "the #define'd host")
        XCTAssertEqual(S.rule(objc, "api.example.com")?.policy.pins.map(\.line), [18, 19])
        XCTAssertEqual(S.rule(objc, "status.example.com")?.line, 28)
    }

    func testUnresolvedNamesInCodeAreWarningsNamingTheLineAndDefinesResolveThem() throws {
        let source = """
        import TrustKit
        let config: [String: Any] = [
            kTSKSwizzleNetworkDelegates: false,
            kTSKPinnedDomains: [
                Hosts.api: [kTSKPublicKeyHashes: [Secrets.primaryPin, "\(h[1])"]],
            ],
        ]
        TrustKit.initSharedInstance(withConfiguration: config)
        """
        let missing = try XCTUnwrap(S.failure(.trustkit, source, file: "Pins.swift"))
        let warning = try XCTUnwrap(missing.findings.first { $0.message.contains("Hosts.api") })
        XCTAssertEqual(warning.line, 5)
        XCTAssertEqual(warning.severity, .warning)
        XCTAssertTrue(warning.message.contains("--define"), warning.message)
        let r = try PolicyImporter.importPolicy(format: .trustkit, contents: Array(source.utf8), file: "Pins.swift", name: "app",
                                                environment: "prod",
                                                defines: ["Hosts.api": "api.example.com", "primaryPin": h[0]])
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.line), [5, 5])
    }

    func testNonCanonicalBase64IsANoteAndThePinCounts() throws {
        // TrustKit's own demo backup pin: the last character carries unused low bits.
        let r = try S.run(.trustkit, """
        {"TSKConfiguration": {"TSKSwizzleNetworkDelegates": true, "TSKPinnedDomains": {"a.example.com":
          {"TSKPublicKeyHashes": ["\(h[0])", "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="]}}}}
        """)
        XCTAssertEqual(S.rule(r, "a.example.com")?.policy.pins.map(\.hash), [h[0], "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA="])
        XCTAssertEqual(r.findings.filter { $0.severity != .info }.count, 0, "\(r.findings)")
        let note = try XCTUnwrap(S.findings(r, containing: "non-canonical").first)
        XCTAssertEqual(note.severity, .info)
        XCTAssertEqual(note.line, 2)
        // Foundation still refuses what TrustKit's decoder refuses: missing padding, URL-safe characters.
        for bad in ["BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", "V4zZ9zgOAvYJg7dA-kmk0t-zIYSW0pYWf_cITIu9JvU="] {
            let e = try S.run(.trustkit, """
            {"TSKSwizzleNetworkDelegates": true, "TSKPinnedDomains": {"a.example.com": {"TSKPublicKeyHashes": ["\(h[0])", "\(h[1])", "\(bad)"]}}}
            """)
            XCTAssertEqual(S.findings(e, containing: "is not base64").count, 1, bad)
        }
        let hpkp = try S.run(.hpkp, "Host: a.example.com\nPublic-Key-Pins: pin-sha256=\"\(h[0])\"; pin-sha256=\"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=\"; max-age=60\n")
        XCTAssertEqual(S.rule(hpkp, "a.example.com")?.policy.pins.count, 2)
        XCTAssertEqual(S.findings(hpkp, containing: "non-canonical").first?.severity, .info)
    }

    func testOkHttpConstantsEndingABlockResolve() throws {
        let r = try S.run(.okhttp, """
        class Api {
            val pinner = CertificatePinner.Builder().add(HOST, PIN, "sha256/\(h[1])").build()
            companion object { private const val HOST = "api.example.com" }
        }
        object Pins { const val PIN = "sha256/\(h[0])"
        }
        """, file: "Api.kt")
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
    }

    func testOkHttpValuesFromOutsideTheFileAreNamedAndDefinable() throws {
        let source = """
        val pinner = CertificatePinner.Builder()
            .add("api.example.com", BuildConfig.PIN_PRIMARY, "sha256/\(h[1])")
            .build()
        """
        let r = try S.run(.okhttp, source, file: "Api.kt")
        let w = try XCTUnwrap(S.findings(r, containing: "BuildConfig.PIN_PRIMARY unresolved").first)
        XCTAssertEqual(w.line, 2)
        let defined = try PolicyImporter.importPolicy(format: .okhttp, contents: Array(source.utf8), file: "Api.kt", name: "app",
                                                      environment: "prod", defines: ["BuildConfig.PIN_PRIMARY": "sha256/\(h[0])"])
        XCTAssertEqual(S.rule(defined, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
    }

    func testAFileOfAnotherFormatSaysWhatItLooksLike() throws {
        let swift = try S.bytes("Tests/Fixtures/import/PinningSetup.swift")
        for format in [PolicyImportFormat.nspinneddomains, .androidNSC, .hpkp] {
            do {
                _ = try PolicyImporter.importPolicy(format: format, contents: swift, file: "Setup.swift", name: "app", environment: "prod")
                XCTFail("\(format) accepted Swift source")
            } catch {
                XCTAssertTrue(error.message.hasSuffix("; this looks like Swift or Objective-C source; --format trustkit reads a TrustKit configuration written in code"), error.message)
                XCTAssertFalse(error.message.hasPrefix("XML parser error"), error.message)
            }
        }
        let nsc = try XCTUnwrap(S.failure(.okhttp, "<?xml version=\"1.0\"?>\n<network-security-config/>"))
        XCTAssertEqual(nsc.message, "no CertificatePinner in this file; this looks like an Android network security config; use --format android-nsc")
    }
}
