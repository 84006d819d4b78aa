import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// A file from which nothing can be imported says why in its last line: the bundled CA a domain is pinned to that
/// was not found, a `<base-config>` pinned to one, a Markdown file given as HTTP headers.
final class ImportRefusalReasonsTests: XCTestCase {
    typealias S = ImportTestSupport
    static let bundledCA = "Tests/Fixtures/import/nsc-bundled-ca.xml"

    func refusal(_ path: String, _ format: PolicyImportFormat, resources: [String: ImportResource] = [:]) throws -> ImportError? {
        do {
            _ = try PolicyImporter.importPolicy(format: format, contents: S.bytes(path), file: "app/" + (path.split(separator: "/").last ?? ""),
                                                name: "app", environment: "prod", resources: resources)
        } catch let e as ImportError {
            return e
        }
        XCTFail("\(path) imported")
        return nil
    }

    func testACAPinnedDomainNamesItsMissingCertificateWhenNothingElseImports() throws {
        let looked = "no res/raw/my_ca.{pem,crt,cer,der}; give the app's res/ directory with --res DIR"
        let missing = try XCTUnwrap(refusal(Self.bundledCA, .androidNSC, resources: ["@raw/my_ca": .missing(looked)]))
        XCTAssertEqual(missing.findings.map(\.description), [
            "app/nsc-bundled-ca.xml:5: warning: **.api.shop.example trusts only bundled CAs (CA pinning); not imported because @raw/my_ca could not be read",
            "app/nsc-bundled-ca.xml:7: error: @raw/my_ca (trust anchor of **.api.shop.example) not found: \(looked)",
        ])
        XCTAssertEqual(missing.description,
                       "app/nsc-bundled-ca.xml: nothing to import: @raw/my_ca (line 7), the CA **.api.shop.example is pinned to, was not found: \(looked)")
        let unresolved = try XCTUnwrap(refusal(Self.bundledCA, .androidNSC))
        XCTAssertEqual(unresolved.message, "nothing to import: @raw/my_ca (line 7), the CA **.api.shop.example is pinned to, "
                           + "was not resolved: give the app's res/ directory with --res DIR")
    }

    func testABaseConfigPinnedToABundledCAIsNotSaidToPinNothing() throws {
        let xml = """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
            <base-config>
                <trust-anchors><certificates src="@raw/company_root"/></trust-anchors>
            </base-config>
        </network-security-config>
        """
        let e = try XCTUnwrap(S.failure(.androidNSC, xml))
        XCTAssertEqual(e.findings.map(\.description), [
            "input:3: warning: <base-config> trusts only @raw/company_root: every domain without a <domain-config> of its own is CA-pinned to it, "
                + "and a pinguard rule needs a domain; not imported (add a <domain-config> for each host the app connects to)",
            "input:4: error: @raw/company_root (trust anchor of every domain of <base-config>) was not resolved: give the app's res/ directory with --res DIR",
        ])
        XCTAssertEqual(e.message, "nothing to import: @raw/company_root (line 4), the CA every domain of <base-config> is pinned to, "
                           + "was not resolved: give the app's res/ directory with --res DIR")
    }

    func testAMarkdownFileGivenAsHeadersSaysItIsMarkdown() throws {
        let notes = try XCTUnwrap(refusal("Tests/Fixtures/import/hpkp-rollout-notes.md", .hpkp))
        XCTAssertEqual(notes.findings.map(\.description), [
            "app/hpkp-rollout-notes.md:6: error: no host for this header: put a \"Host: example.com\" line (or an https:// URL) before it; not imported",
        ])
        XCTAssertEqual(notes.message, "nothing to import: no usable hpkp pin configuration found; "
                           + "this looks like Markdown (a README), not HTTP headers or a server configuration")
        let readme = S.failure(.hpkp, "Pinning\n=======\n\nThe API sends Public-Key-Pins with two pins.\n", file: "docs/README")
        XCTAssertEqual(readme?.message, "no Public-Key-Pins or Public-Key-Pins-Report-Only header line; "
                           + "this looks like Markdown (a README), not HTTP headers or a server configuration")
    }
}
