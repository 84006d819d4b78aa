import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// Hosts and pins that are expressions over values from elsewhere (`BuildConfig`, another file's `object`, a
/// variable, obfuscated fields): every name `--define` would need is listed, the calls around them are not, the
/// import ends with one suggestion of the flags to pass, and passing them imports the calls.
final class ImportUndefinedNamesTests: XCTestCase {
    typealias S = ImportTestSupport
    static let folder = "Tests/Fixtures/import/"
    let pins = ["OOp/9QsdNx9mjL8u1dO/bVoURz3wB/0XfUxzOoiES5k=", "Wrrfe2EtODjDI/VP6ptwssbZgI8hzw++em7VFIT0144=",
                "1kO1WF27i7tuWp11a8tDBwKtVEe0FFRZFa/louY96gg="]

    func importFixture(_ name: String, _ format: PolicyImportFormat, defines: [String: String] = [:]) throws -> ImportResult {
        try PolicyImporter.importPolicy(format: format, contents: S.bytes(Self.folder + name), file: name, name: "app",
                                        environment: "prod", defines: defines)
    }

    struct ImportedAnyway: Error {}

    /// The refusal of the fixture `name`; the test fails when it imports.
    func refusal(_ name: String, _ format: PolicyImportFormat) throws -> ImportError {
        do {
            let r = try importFixture(name, format)
            XCTFail("\(name) imported: \(r.yaml)")
        } catch let e as ImportError {
            return e
        }
        throw ImportedAnyway()
    }

    func unresolved(_ names: String, _ pronoun: String = "it") -> String {
        "(\(names) unresolved: not defined in this file; supply \(pronoun) with --define NAME=VALUE)"
    }

    func testOkHttpNamesTheValuesOfExpressionsAndNotTheCallsAroundThem() throws {
        let e = try refusal("OkHttpBuildConfigPins.kt", .okhttp)
        let f = "OkHttpBuildConfigPins.kt"
        XCTAssertEqual(e.findings.map(\.description), [
            "\(f):8: warning: the pattern of this add() is not a constant string \(unresolved("BuildConfig.API_URL")); call not imported",
            "\(f):8: warning: pin argument is not a constant string \(unresolved("BuildConfig.CERTIFICATE_PIN")); not imported",
            "\(f):9: warning: the pattern of this add() is not a constant string \(unresolved("Constants.CDN_HOST")); call not imported",
            "\(f):9: warning: pin argument is not a constant string \(unresolved("Constants.PIN_1")); not imported",
            "\(f):9: warning: pin argument is not a constant string \(unresolved("Constants.PIN_2")); not imported",
            "\(f):10: warning: pin argument is not a constant string \(unresolved("certificatePinner1")); not imported",
            "\(f):10: error: no usable pin for static.shop.example; not imported",
            "\(f):11: warning: the pattern of this add() is not a constant string \(unresolved("BuildConfig.FLAVOR")); call not imported",
            "\(f):11: warning: pin argument is not a constant string \(unresolved("BuildConfig.CERTIFICATE_PIN")); not imported",
        ])
        XCTAssertEqual(e.description, "\(f): nothing to import: no usable okhttp pin configuration found")
        XCTAssertEqual(DefineSuggestion.line(e.undefinedNames),
                       "supply with: --define BuildConfig.API_URL=VALUE --define BuildConfig.CERTIFICATE_PIN=VALUE "
                           + "--define Constants.CDN_HOST=VALUE --define Constants.PIN_1=VALUE --define Constants.PIN_2=VALUE "
                           + "--define certificatePinner1=VALUE --define BuildConfig.FLAVOR=VALUE")
    }

    func testDefiningTheListedNamesImportsEveryCall() throws {
        let r = try importFixture("OkHttpBuildConfigPins.kt", .okhttp, defines: [
            "BuildConfig.API_URL": "https://deploy@api.shop.example:8443/v2/", "BuildConfig.CERTIFICATE_PIN": "sha256/\(pins[0])",
            "Constants.CDN_HOST": "cdn.shop.example", "Constants.PIN_1": "sha256/\(pins[1])", "Constants.PIN_2": "sha256/\(pins[2])",
            "certificatePinner1": "sha256/\(pins[1]), sha256/\(pins[2])", "BuildConfig.FLAVOR": "staging",
        ])
        XCTAssertEqual(r.findings.filter { $0.severity != .info }.map(\.description), [])
        XCTAssertEqual(r.undefinedNames, [])
        XCTAssertEqual(S.rule(r, "api.shop.example")?.policy.pins.map(\.hash), [pins[0]])
        XCTAssertEqual(S.rule(r, "cdn.shop.example")?.policy.pins.map(\.hash), [pins[1], pins[2]])
        XCTAssertEqual(S.rule(r, "static.shop.example")?.policy.pins.map(\.hash), [pins[1], pins[2]])
        XCTAssertEqual(S.rule(r, "staging.shop.example")?.line, 11)
    }

    func testObfuscatedJavaFieldsAreTheNamesToDefine() throws {
        let e = try refusal("ObfuscatedPinning.java", .okhttp)
        XCTAssertEqual(e.findings.map(\.description), [
            "ObfuscatedPinning.java:10: warning: the pattern of this add() is not a constant string \(unresolved("C0581a.f1233a")); call not imported",
            "ObfuscatedPinning.java:10: warning: pin argument is not a constant string \(unresolved("C0581a.f1234b, a.b", "them")); not imported",
        ])
        XCTAssertEqual(DefineSuggestion.line(e.undefinedNames),
                       "supply with: --define C0581a.f1233a=VALUE --define C0581a.f1234b=VALUE --define a.b=VALUE")
        let r = try importFixture("ObfuscatedPinning.java", .okhttp, defines: [
            "C0581a.f1233a": "api.shop.example", "C0581a.f1234b": "sha256/\(pins[0])", "a.b": "sha256/\(pins[1])",
        ])
        XCTAssertEqual(S.rule(r, "api.shop.example")?.policy.pins.map(\.hash), [pins[0], pins[1]])
    }

    func testTrustKitSwiftNamesTheValuesItNeeds() throws {
        let e = try refusal("TrustKitFromBuildSettings.swift", .trustkit)
        let f = "TrustKitFromBuildSettings.swift"
        XCTAssertEqual(e.findings.map(\.description), [
            "\(f):7: info: TSKSwizzleNetworkDelegates: TSKSwizzleNetworkDelegates is false: pins apply only to connections whose delegate calls TSKPinningValidator",
            "\(f):9: warning: dictionary key is not a string literal or known constant (apiUrlString, mainPublicKey, backupPublicKey "
                + "unresolved: not defined in this file; supply with --define NAME=VALUE); entry ignored",
        ])
        XCTAssertEqual(e.description, "\(f):6: no entry of TSKPinnedDomains could be read (see the warnings); nothing to import")
        XCTAssertEqual(DefineSuggestion.line(e.undefinedNames),
                       "supply with: --define apiUrlString=VALUE --define mainPublicKey=VALUE --define backupPublicKey=VALUE")
        let r = try importFixture(f, .trustkit, defines: [
            "apiUrlString": "https://api.shop.example/v1", "mainPublicKey": pins[0], "backupPublicKey": pins[1],
        ])
        XCTAssertEqual(S.rule(r, "api.shop.example")?.policy.pins.map(\.hash), [pins[0], pins[1]])
        XCTAssertEqual(S.rule(r, "api.shop.example")?.line, 9)
    }

    func testObjectiveCSelectorsAndClassesAreNotNames() throws {
        let e = try XCTUnwrap(S.failure(.trustkit, """
        #import <TrustKit/TrustKit.h>
        NSDictionary *config = @{
            kTSKSwizzleNetworkDelegates: @NO,
            kTSKPinnedDomains: @{
                [NSURL URLWithString:apiUrlString].host: @{
                    kTSKPublicKeyHashes: @[mainPublicKey, backupPublicKey],
                },
            },
        };
        [TrustKit initSharedInstanceWithConfiguration:config];
        """, file: "Pinning.m"))
        XCTAssertEqual(e.findings.filter { $0.severity == .warning }.map(\.description), [
            "Pinning.m:5: warning: dictionary key is not a string literal or known constant (apiUrlString, mainPublicKey, backupPublicKey "
                + "unresolved: not defined in this file; supply with --define NAME=VALUE); entry ignored",
        ])
    }

    func testListingNamesOfNestedCallsStaysLinear() throws {
        func calls(_ count: Int) -> String {
            var text = "val p = CertificatePinner.Builder()"
            for k in 0..<count { text += ".add(Hosts.h\(k), URI(Pins.p\(k)).host, " }
            return text + String(repeating: ")", count: count) + ".build()\n"
        }
        let e = try XCTUnwrap(S.failure(.okhttp, calls(4_000), file: "Nested.kt"))
        XCTAssertEqual(e.undefinedNames.first, "Hosts.h0")
        // Every argument's range covers the calls nested in it: listing each range in full is quadratic, sixteen times
        // the work for four times the calls; the name scan's budget of four visits per token keeps it linear.
        HostileSource.assertGrowth(.okhttp, file: "Nested.kt", small: calls(2_000), large: calls(8_000), below: 8, "8,000 nested calls against 2,000")
    }

    func testTheSuggestionQuotesWhatAShellWouldExpandAndStaysOneBoundedLine() {
        XCTAssertNil(DefineSuggestion.line([]))
        XCTAssertEqual(DefineSuggestion.line(["BuildConfig.PIN", "Outer$Inner.PIN"]),
                       "supply with: --define BuildConfig.PIN=VALUE --define 'Outer$Inner.PIN=VALUE'")
        let many = (0..<60).map { "Pins.P\($0)" }
        let line = DefineSuggestion.line(many)
        XCTAssertEqual(line?.components(separatedBy: "--define ").count, 51)
        XCTAssertEqual(line?.hasSuffix("--define Pins.P49=VALUE (and 10 more: see the warnings)"), true)
    }
}
