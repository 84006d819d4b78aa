import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// `pinguard serve --once`: one round, a summary on stdout, and the exit status scripts and CI rely on (docs/reference.md, Commands and exit codes).
final class ServeOnceTests: XCTestCase {
    private func once(_ targets: (ServiceWorld) -> [ServiceWorld.Target]) throws -> CommandResult {
        let w = try ServiceWorld.direct()
        let dir = try TemporaryDirectory.make("pinguard-svc-once")
        let config = try w.writeConfig(in: dir, targets: targets(w), journal: false)
        return try PinguardCLI.run(["serve", "--once", "--config", config], timeout: 30)
    }

    func testExitsZeroWhenEveryClientAcceptsEveryTarget() throws {
        let r = try once { [$0.healthy, $0.backup] }
        XCTAssertEqual(r.status, 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.split(separator: " ").first, "target", "a header first: \(r.stdout)")
        XCTAssertEqual(lines.filter { $0.contains("ACCEPT") }.count, 4, "2 targets x 2 policy sets:\n\(r.stdout)")
        XCTAssertTrue(lines.contains { $0.contains("healthy") && $0.contains("ios-app/prod") && $0.contains("pin_match") }, r.stdout)
        XCTAssertTrue(r.stdout.contains("2 targets (2 addresses) in "), r.stdout)
        XCTAssertTrue(r.stdout.contains(": 0 rejected by a client, 0 probes failed"), r.stdout)
        XCTAssertFalse(r.stderr.contains("serving /metrics"), "--once serves nothing:\n\(r.stderr)")
    }

    func testExitsOneWhenAClientRejects() throws {
        let r = try once { [$0.healthy, $0.rotated] }
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(r.stdout.split(separator: "\n").contains { $0.contains("rotated") && $0.contains("REJECT") && $0.contains("pin_mismatch") },
                      r.stdout)
        XCTAssertTrue(r.stdout.contains(": 1 rejected by a client, 0 probes failed"), r.stdout)
    }

    func testExitsOneWhenAProbeFails() throws {
        let r = try once { [$0.healthy, $0.down()] }
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(r.stdout.split(separator: "\n").contains { $0.contains("down") && $0.contains("FAILED") }, r.stdout)
        XCTAssertTrue(r.stdout.contains(": 0 rejected by a client, 1 probes failed"), r.stdout)
    }

    /// A bad file exits 2 with an error naming the file, and writes `config_invalid` to the journal.
    func testExitsTwoOnAConfigurationError() throws {
        let w = try ServiceWorld.privileged(for: "reads config_invalid back from a private journald")
        let dir = try TemporaryDirectory.make("pinguard-svc-once-bad")
        let config = try w.writeConfig(in: dir, targets: [w.healthy], journal: true)
        try (String(contentsOfFile: config, encoding: .utf8) + "bogus_key: 1\n").write(toFile: config, atomically: true, encoding: .utf8)
        let binary = try XCTUnwrap(PinguardCLI.binary)
        // The journal lives as long as the wrapper's namespace: read it back inside, before it goes.
        let script = """
        "$0" serve --once --config "$1"; rc=$?
        journalctl --sync; journalctl -o json --no-pager SYSLOG_IDENTIFIER=pinguard >"$2"
        exit $rc
        """
        let journalFile = dir.appendingPathComponent("journal.json").path
        let r = try CommandRunner.run(ServeProcess.wrapper, ["/bin/bash", "-c", script, binary, config, journalFile], timeout: 30)
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains(config) && r.stderr.contains("bogus_key"), r.stderr)
        XCTAssertEqual(r.stdout, "", "no summary without a configuration")
        let entries = JournalRecord.parse((try? String(contentsOfFile: journalFile, encoding: .utf8)) ?? "")
        let invalid = entries.events("config_invalid")
        XCTAssertEqual(invalid.count, 1, "\(entries)")
        XCTAssertEqual(invalid.first?["MESSAGE_ID"], JournalEvent.configInvalid.messageID)
        XCTAssertEqual(invalid.first?["PINGUARD_CONFIG"], config)
        XCTAssertTrue(invalid.first?["PINGUARD_ERROR"]?.contains("bogus_key") ?? false, "\(invalid)")

        // The same without --once, a missing file, and a bad --listen; no journal, so nothing reaches the host's.
        func serve(_ arguments: [String]) throws -> CommandResult {
            try CommandRunner.run(ServeProcess.wrapper, ["--no-journal", binary, "serve"] + arguments, timeout: 30)
        }
        let long = try serve(["--config", config])
        XCTAssertEqual(long.status, 2, "\(long)")
        XCTAssertTrue(long.stderr.contains("bogus_key"), long.stderr)
        XCTAssertFalse(long.stderr.contains("serving /metrics"), long.stderr)
        let missing = try serve(["--once", "--config", dir.appendingPathComponent("absent.yml").path])
        XCTAssertEqual(missing.status, 2, "\(missing)")
        XCTAssertTrue(missing.stderr.contains("absent.yml"), missing.stderr)
        let good = try w.writeConfig(in: dir, targets: [w.healthy], journal: false, file: "good.yml")
        let listen = try serve(["--config", good, "--listen", "nowhere"])
        XCTAssertEqual(listen.status, 2, "\(listen)")
        XCTAssertTrue(listen.stderr.contains("nowhere"), listen.stderr)
    }
}
