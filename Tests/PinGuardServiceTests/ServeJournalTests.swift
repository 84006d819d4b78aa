import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// Journal events of a real `pinguard serve`, read back from its private journald with `journalctl -o json` (docs/reference.md, Journal events).
final class ServeJournalTests: XCTestCase {
    /// Every event the first round causes, with its identity and fields.
    func testEventsOfTheFirstRound() throws {
        let s = try RunningService.journaled()
        let w = s.world
        let entries = try s.serve.waitForJournal { $0.events("policy_missing").count >= 1 && $0.events("pin_mismatch").count >= 1 }
        let port = String(w.farm.port)

        func one(_ event: JournalEvent, _ match: [String: String], file: StaticString = #filePath, line: UInt = #line) -> JournalRecord? {
            let found = entries.events(event.rawValue, match)
            XCTAssertEqual(found.count, 1, "\(event.rawValue) \(match): \(found)", file: file, line: line)
            guard let r = found.first else { return nil }
            XCTAssertEqual(r["MESSAGE_ID"], event.messageID, file: file, line: line)
            XCTAssertEqual(r["PRIORITY"], String(event.priority), file: file, line: line)
            XCTAssertEqual(r["SYSLOG_IDENTIFIER"], "pinguard", file: file, line: line)
            XCTAssertFalse(r["MESSAGE"]?.isEmpty ?? true, file: file, line: line)
            return r
        }

        let loaded = one(.configLoaded, [:])
        XCTAssertEqual(loaded?["PINGUARD_CONFIG"], s.configPath)
        XCTAssertEqual(loaded?["PINGUARD_TARGETS"], "6")
        XCTAssertEqual(loaded?["PINGUARD_REPLICA"], "r1", "every event names the instance (--replica)")
        XCTAssertNil(loaded?["PINGUARD_SHARD"], "not sharded")

        let mismatch = one(.pinMismatch, ["PINGUARD_TARGET": "rotated", "PINGUARD_POLICY_SET": "ios-app"])
        XCTAssertEqual(mismatch?["PRIORITY"], "3", "a client rejects: error")
        XCTAssertEqual(mismatch?["PINGUARD_HOST"], "rotated.pinguard.test")
        XCTAssertEqual(mismatch?["PINGUARD_PORT"], port)
        XCTAssertEqual(mismatch?["PINGUARD_ENVIRONMENT"], "prod")
        XCTAssertEqual(mismatch?["PINGUARD_REASON"], "pin_mismatch")
        XCTAssertEqual(mismatch?["PINGUARD_VANTAGE"], "eu-west", "every event names the vantage point (--vantage)")
        XCTAssertEqual(mismatch?["PINGUARD_MATCHED_PINS"], "")
        XCTAssertEqual(mismatch?["PINGUARD_RESERVE_PINS"], "2")
        XCTAssertEqual(mismatch?["PINGUARD_LEAF_SPKI_SHA256"], w.rotatedLeafPin)
        XCTAssertNotNil(mismatch?["PINGUARD_DAYS_TO_EXPIRY"])

        let matched = one(.pinMatched, ["PINGUARD_TARGET": "healthy", "PINGUARD_POLICY_SET": "ios-app"])
        XCTAssertEqual(matched?["PINGUARD_MATCHED_PINS"], "spki:\(w.validLeafPin)")
        XCTAssertEqual(matched?["PINGUARD_RESERVE_PINS"], "1")
        XCTAssertEqual(matched?["PINGUARD_REASON"], "pin_match")
        XCTAssertEqual(matched?["PINGUARD_LEAF_SPKI_SHA256"], w.validLeafPin)
        XCTAssertEqual(matched?["PINGUARD_HOST"], "valid.pinguard.test")
        XCTAssertNotNil(matched?["PINGUARD_DAYS_TO_PIN_BREAKAGE"])
        let ca = one(.pinMatched, ["PINGUARD_TARGET": "healthy", "PINGUARD_POLICY_SET": "android-app"])
        XCTAssertEqual(ca?["PINGUARD_MATCHED_PINS"], "ca:\(w.intermediatePin)")

        let backup = one(.backupPinInUse, ["PINGUARD_TARGET": "backup", "PINGUARD_POLICY_SET": "ios-app"])
        XCTAssertEqual(backup?["PINGUARD_MATCHED_PINS"], "spki:\(w.backupLeafPin)")
        XCTAssertEqual(backup?["PINGUARD_LEAF_SPKI_SHA256"], w.backupLeafPin)
        XCTAssertTrue(entries.events("backup_pin_in_use", ["PINGUARD_TARGET": "healthy"]).isEmpty)

        let missing = one(.reservePinMissing, ["PINGUARD_TARGET": "expiring", "PINGUARD_POLICY_SET": "ios-app"])
        XCTAssertEqual(missing?["PINGUARD_RESERVE_PINS"], "0")
        XCTAssertEqual(entries.events("reserve_pin_missing").count, 1, "every other evaluated target has a reserve pin")

        let expiry = one(.expiryWarning, ["PINGUARD_TARGET": "expiring"])
        let daysToExpiry = try XCTUnwrap(expiry?["PINGUARD_DAYS_TO_EXPIRY"].flatMap(Double.init))
        XCTAssertTrue((4...5).contains(daysToExpiry), "\(daysToExpiry)")
        XCTAssertEqual(entries.events("expiry_warning").count, 1)

        let breakage = one(.pinBreakageImminent, ["PINGUARD_TARGET": "expiring", "PINGUARD_POLICY_SET": "ios-app"])
        let daysToBreakage = try XCTUnwrap(breakage?["PINGUARD_DAYS_TO_PIN_BREAKAGE"].flatMap(Double.init))
        XCTAssertTrue((4...5).contains(daysToBreakage), "\(daysToBreakage)")
        XCTAssertTrue(entries.events("pin_breakage_imminent", ["PINGUARD_POLICY_SET": "android-app"]).isEmpty,
                      "the CA pin matches an intermediate valid for years")

        let failed = one(.probeFailed, ["PINGUARD_TARGET": "down"])
        XCTAssertEqual(failed?["PRIORITY"], "3")
        XCTAssertTrue(failed?["PINGUARD_ERROR"]?.contains("refused") ?? false, "\(failed?["PINGUARD_ERROR"] ?? "nil")")
        XCTAssertEqual(failed?["PINGUARD_HOST"], "down.pinguard.test")

        let uncovered = one(.policyMissing, ["PINGUARD_TARGET": "uncovered"])
        XCTAssertEqual(uncovered?["PINGUARD_REASON"], "policy_missing")
        XCTAssertEqual(uncovered?["PINGUARD_ENVIRONMENT"], "prod")
        XCTAssertNil(uncovered?["PINGUARD_POLICY_SET"])

        XCTAssertTrue(entries.events("chain_changed").isEmpty)
        XCTAssertTrue(entries.events("probe_recovered").isEmpty)
        XCTAssertTrue(entries.events("config_invalid").isEmpty)
        XCTAssertEqual(try s.serve.metrics().value("pinguard_journal_write_failures_total"), 0, "the private journald takes every event")
    }

    /// Later rounds see the same states: nothing is written again.
    func testLaterRoundsWriteNothingNew() throws {
        let s = try RunningService.journaled()
        _ = try s.serve.waitForRounds(2, timeout: 15)
        // Lint findings are announced per load, not per round; they are not what this test counts.
        let entries = try s.serve.journalEntries().filter { $0.event != "policy_lint_finding" }
        var counts: [String: Int] = [:]
        for e in entries {
            let key = [e.event ?? "-", e["PINGUARD_TARGET"] ?? "-", e["PINGUARD_POLICY_SET"] ?? "-"].joined(separator: " ")
            counts[key, default: 0] += 1
        }
        XCTAssertEqual(counts.filter { $0.value > 1 }, [:], "events repeated on later rounds")
        // 1 config_loaded + 1 state_not_persisted + healthy 2 + expiring 5 + rotated 2 + backup 3 + down 1 + uncovered 1,
        // + 4 renewal_will_break_pins (ios-app pins leaf keys; the next key is not known, so judged a new one).
        XCTAssertEqual(entries.count, 20, entries.map(\.description).joined(separator: "\n"))
        let probes = try XCTUnwrap(try s.serve.metrics().value("pinguard_probes_total"))
        XCTAssertGreaterThanOrEqual(probes, 18, "at least three rounds of six targets")
    }
}
