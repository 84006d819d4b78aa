import Foundation
import PinGuardCore
import PinGuardReaders
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// The key by which `PolicyLintTracker` decides that a lint finding was reported before: it survives
/// changed day counts and moved lines, and keeps findings apart that differ in any other number.
final class PolicyLintTrackerTests: XCTestCase {
    /// The tracker's key ignores day counts: the same expiring pin-set a day later ("in 44 days" instead of
    /// "in 45 days") is not reported again, and neither is the same file with its lines moved.
    func testLintTrackerKeysIgnoreDayCountsAndLines() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let now = Date()
        let text = PolicyYAML.policySet(name: "web-app", rules: [
            HostPolicySpec(pattern: "www.pinguard.test",
                           pins: [.spki(Data(repeating: 1, count: 32).base64EncodedString(), role: "primary"),
                                  .spki(Data(repeating: 2, count: 32).base64EncodedString(), role: "backup")],
                           expires: formatter.string(from: now.addingTimeInterval(45.5 * 86_400))),
        ])
        let set = try PolicyParser.parse(text, file: "web-app.yml")
        var tracker = PolicyLintTracker(listPath: "/nonexistent")
        let first = tracker.update([set], now: now, windowDays: 60)
        let expiring = first.events.filter { $0.field("PINGUARD_RULE") == "pin-set-expiring" }
        XCTAssertEqual(expiring.count, 1, "\(first.events)")

        let tomorrow = now.addingTimeInterval(86_400)
        let messages = { (d: Date) in
            PolicyLinter.lint([set], now: d, publicSuffixes: PublicSuffixList(text: ""), expiringWithinDays: 60).map(\.message)
        }
        XCTAssertNotEqual(messages(now), messages(tomorrow), "the day count in the message changed")
        XCTAssertEqual(tracker.update([set], now: tomorrow, windowDays: 60).events, [], "same finding, one day later")

        let moved = try PolicyParser.parse("# a comment\n\n" + text, file: "web-app.yml")
        let again = tracker.update([moved], now: tomorrow, windowDays: 60)
        XCTAssertEqual(again.events, [], "same finding, two lines further down")
        XCTAssertEqual(again.counts, first.counts)
    }

    /// Findings that differ only in a number other than a day count stay distinct: a second group without a
    /// backup pin ("group 3" after "group 1") is reported although "group 1" was reported before.
    func testLintTrackerKeepsFindingsThatDifferInOtherNumbers() throws {
        func pin(_ byte: UInt8, _ group: String, _ role: String = "primary") -> String {
            "            - {type: spki, hash: \"\(Data(repeating: byte, count: 32).base64EncodedString())\", role: \(role), group: \"\(group)\"}\n"
        }
        func policy(_ pins: String) -> String {
            "name: pay-app\nenvironments:\n  prod:\n    policies:\n      - pattern: pay.pinguard.test\n        policy:\n          match: each_group\n          pins:\n" + pins
        }
        let before = try PolicyParser.parse(policy(pin(1, "1") + pin(2, "2") + pin(3, "2", "backup")), file: "pay.yml")
        let after = try PolicyParser.parse(policy(pin(1, "1") + pin(2, "2") + pin(3, "2", "backup") + pin(4, "3")), file: "pay.yml")
        var tracker = PolicyLintTracker(listPath: "/nonexistent")
        let first = tracker.update([before], now: Date(), windowDays: 30).events.filter { $0.field("PINGUARD_RULE") == "no-backup-pin" }
        XCTAssertEqual(first.count, 1, "\(first)")
        let second = tracker.update([after], now: Date(), windowDays: 30).events.filter { $0.field("PINGUARD_RULE") == "no-backup-pin" }
        XCTAssertEqual(second.count, 1, "the finding for group 3 is new: \(second)")
        XCTAssertTrue(second.first?.message.contains("3") ?? false, "\(second)")
    }
}
