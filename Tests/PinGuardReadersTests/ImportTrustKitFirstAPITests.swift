import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// TrustKit's first API, `TrustKit.initialize(withConfiguration:)` and `[TrustKit initializeWithConfiguration:]`, still
/// in shipped apps, configures TrustKit exactly as `initSharedInstance` does.
final class ImportTrustKitFirstAPITests: XCTestCase {
    typealias S = ImportTestSupport

    func importText(_ text: String, file: String) throws -> ImportResult {
        try PolicyImporter.importPolicy(format: .trustkit, contents: Array(text.utf8), file: file, name: "app", environment: "prod")
    }

    func testInitializeWithConfigurationIsReadLikeInitSharedInstance() throws {
        let cases = [
            ("TrustKitFirstAPI.swift", "TrustKit.initialize(withConfiguration:", "TrustKit.initSharedInstance(withConfiguration:", 11),
            ("TrustKitFirstAPI.m", "[TrustKit initializeWithConfiguration:", "[TrustKit initSharedInstanceWithConfiguration:", 12),
        ]
        for (name, first, shared, line) in cases {
            let path = "Tests/Fixtures/import/" + name
            let text = String(decoding: try S.bytes(path), as: UTF8.self)
            XCTAssertTrue(text.contains(first), name)
            let old = try importText(text, file: path)
            XCTAssertEqual(old, try importText(text.replacingOccurrences(of: first, with: shared), file: path), name)
            let rule = try XCTUnwrap(S.rule(old, "**.api.shop.example"))
            XCTAssertEqual(rule.line, line, name)
            XCTAssertEqual(rule.policy.pins.map(\.hash), ["OOp/9QsdNx9mjL8u1dO/bVoURz3wB/0XfUxzOoiES5k=", "Wrrfe2EtODjDI/VP6ptwssbZgI8hzw++em7VFIT0144="])
            XCTAssertEqual(old.findings.map(\.description), [], name)
        }
    }

    func testAPlainInitializeIsNotTrustKits() {
        let e = S.failure(.trustkit, "import TrustKit\nclass Setup { override class func initialize() { TrustKit.setLoggerBlock(nil) } }\n", file: "Setup.swift")
        XCTAssertEqual(e?.message, "source file without a TrustKit initSharedInstance(withConfiguration:) or initialize(withConfiguration:) call; nothing to import")
    }
}
