import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// Every example under `policies/` is a fixture: it must parse, with unique set names.
final class PolicyExamplesTests: XCTestCase {
    func testEveryExamplePolicyParses() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("policies")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yml") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 6)
        var names = Set<String>()
        for f in files {
            let text = try String(contentsOf: folder.appendingPathComponent(f), encoding: .utf8)
            let set = try PolicyParser.parse(text, file: f)
            XCTAssertTrue(names.insert(set.name).inserted, "\(f): duplicate set name \(set.name)")
        }
        let example = try PolicyParser.parse(String(contentsOf: folder.appendingPathComponent("example-ios-app.yml"), encoding: .utf8),
                                             file: "example-ios-app.yml")
        let prod = try XCTUnwrap(example.environments["prod"])
        XCTAssertEqual(prod.policy(for: "api.example.com")?.pattern, "api.example.com")
        XCTAssertEqual(prod.policy(for: "cdn1.example.com")?.pattern, "*.example.com")
        XCTAssertEqual(prod.policy(for: "x.y.beta.example.com")?.pattern, "**.beta.example.com")
        XCTAssertEqual(prod.policy(for: "pay.example.com")?.policy.matchMode, .eachGroup)
        XCTAssertEqual(prod.policy(for: "a.b.example.org")?.pattern, "default")
    }
}
