import Foundation
import PinGuardTestSupport
import XCTest

/// `history` and `check-config` find the state file as `serve` does: `state.path`, else
/// `$STATE_DIRECTORY/state.db`; without either they say where the shipped unit keeps it.
final class CLIStateLocationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-cli-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("state"), withIntermediateDirectories: true)
        // A target on a loopback port nothing listens on: the round fails at once, offline.
        try """
            listen: "127.0.0.1:0"
            policies: []
            journal: {enabled: false}
            targets:
              - {host: closed.pinguard.test, connect: 127.0.0.1, port: 9, name: closed}

            """.write(to: folder.appendingPathComponent("pinguard.yml"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private var config: String { folder.appendingPathComponent("pinguard.yml").path }

    private func run(_ arguments: [String], stateDirectory: String?) throws -> CommandResult {
        let binary = try XCTUnwrap(PinguardCLI.binary, "the pinguard binary is not built")
        var environment = ProcessInfo.processInfo.environment
        environment["STATE_DIRECTORY"] = stateDirectory
        return try CommandRunner.run(binary, arguments, timeout: 60, environment: environment)
    }

    func testHistoryReadsTheFileServeWroteUnderStateDirectory() throws {
        let stateDirectory = folder.appendingPathComponent("state").path
        let serve = try run(["serve", "--once", "--config", config], stateDirectory: stateDirectory)
        XCTAssertEqual(serve.status, 1, "the closed port fails the round: \(serve)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(stateDirectory)/state.db"), "\(serve)")

        let history = try run(["history", "closed", "--config", config], stateDirectory: stateDirectory)
        XCTAssertEqual(history.status, 1, "the file is found and holds no chain of the target: \(history)")
        XCTAssertTrue(history.stderr.contains("in \(stateDirectory)/state.db"), history.stderr)

        let check = try run(["check-config", config], stateDirectory: stateDirectory)
        XCTAssertEqual(check.status, 0, "\(check)")
        XCTAssertTrue(check.stdout.contains("served chains are remembered in \(stateDirectory)/state.db"), check.stdout)
        XCTAssertFalse(check.stdout.contains("note:"), check.stdout)
    }

    func testWithoutStatePathOrStateDirectoryTheCommandsSayWhereTheServiceKeepsIt() throws {
        let history = try run(["history", "closed", "--config", config], stateDirectory: nil)
        XCTAssertEqual(history.status, 2, "\(history)")
        XCTAssertTrue(history.stderr.contains("names no state file"), history.stderr)
        XCTAssertTrue(history.stderr.contains("/var/lib/pinguard/state.db"), history.stderr)
        XCTAssertTrue(history.stderr.contains("STATE_DIRECTORY=/var/lib/pinguard"), history.stderr)

        let check = try run(["check-config", config], stateDirectory: nil)
        XCTAssertEqual(check.status, 0, "\(check)")
        XCTAssertTrue(check.stdout.contains("in memory only"), check.stdout)
        XCTAssertTrue(check.stdout.contains("note: pinguard.service keeps its state in $STATE_DIRECTORY/state.db"), check.stdout)
    }
}
