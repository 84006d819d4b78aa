import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// Durations, integers and dates at the ends of their ranges give errors or clamped values, never traps.
final class ExtremeValueTests: XCTestCase {
    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch { return "\(error)" }
        XCTFail("accepted")
        return ""
    }

    func testSaturatingConversion() {
        XCTAssertEqual(Int(saturating: 1e300), .max)
        XCTAssertEqual(Int(saturating: -1e300), .min)
        XCTAssertEqual(Int(saturating: .infinity), .max)
        XCTAssertEqual(Int(saturating: -.infinity), .min)
        XCTAssertEqual(Int(saturating: .nan), 0)
        XCTAssertEqual(Int(saturating: 9_223_372_036_854_775_807.0), .max)
        XCTAssertEqual(Int(saturating: -2.9), -2)
    }

    func testHugeDurationsAreOutOfRangeErrors() {
        XCTAssertEqual(message { _ = try ServiceConfigParser.parse("interval: 9999999999999999999h\n", file: "c.yml") },
                       "c.yml:1: interval: \"9999999999999999999h\" is longer than the maximum of 7d")
        let digits = String(repeating: "9", count: 400)
        XCTAssertEqual(message { _ = try ServiceConfigParser.parse("timeout: \(digits)y\n", file: "c.yml") },
                       "c.yml:1: timeout: \(EchoedInput.quoted(digits + "y")) is longer than the maximum of 1h")
    }

    func testDurationFormattingNeverTraps() {
        XCTAssertEqual(PromDuration.format(1e300), "106751991167300d15h30m7s")
        XCTAssertEqual(PromDuration.format(.infinity), "106751991167300d15h30m7s")
        XCTAssertEqual(PromDuration.format(.nan), "0s")
        XCTAssertEqual(PromDuration.format(-5), "0s")
        XCTAssertEqual(PromDuration.format(0.0004), "0ms")
        XCTAssertEqual(PromDuration.format(5400), "1h30m")
    }

    func testHugeIntegersAreErrors() {
        XCTAssertEqual(message { _ = try ServiceConfigParser.parse("concurrency: 99999999999999999999999\n", file: "c.yml") },
                       "c.yml:1: concurrency: expected an integer, found \"99999999999999999999999\"")
        XCTAssertEqual(message { _ = try ServiceConfigParser.parse("expiry_warning_days: -9223372036854775808\n", file: "c.yml") },
                       "c.yml:1: expiry_warning_days: -9223372036854775808 is out of range 0...3650")
    }

    func testExpiryAtTheEndsOfTimeIsLintedWithoutTrapping() throws {
        for expires in ["0000-01-01", "9999-12-31"] {
            let set = try PolicyParser.parse("""
                name: ends
                environments:
                  prod:
                    policies:
                      - pattern: api.example.com
                        policy:
                          expires: \(expires)
                          pins:
                            - {hash: "\(String(repeating: "A", count: 43))="}
                            - {hash: "\(String(repeating: "B", count: 42))A="}
                """, file: "p.yml")
            _ = PolicyLinter.lint([set], now: Date(), publicSuffixes: PublicSuffixList(text: ""), expiringWithinDays: Int.max)
        }
    }
}
