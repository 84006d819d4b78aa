import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardState
import PinGuardTestSupport
import XCTest

/// `history` in-process: the state file found as `serve` finds it (`state.path`, else `$STATE_DIRECTORY`), the
/// chains it remembers as a table or JSON, and the status when there is nothing or no file to read.
final class HistoryCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory.make("pinguard-history")
    }

    func config(_ state: String = "") throws -> String {
        try PolicyYAML.write("policies: []\ntargets:\n  - {host: api.example.com, name: api}\n\(state)", to: folder, as: "pinguard.yml")
    }

    func history(_ name: String, config: String, json: Bool = false, environment: [String: String] = [:]) -> CommandOutcome {
        var options = HistoryCommand.Options(name: name)
        options.config = config
        options.json = json
        options.environment = environment
        return HistoryCommand.run(options)
    }

    /// A state file at `path` holding two chains of `api` at one address: a renewal that kept the key.
    func rememberTwoChains(at path: String) throws {
        let store = try StateStore.open(path: path, readOnly: false)
        defer { store.close() }
        for (n, time) in [(UInt64(1), Int64(1_000)), (2, 2_000_000)] {
            let digest = { (family: UInt64) in ChainDigest(words: (family, n, ~n, 7)) }
            let chain = ServedChain(leafSerial: "0\(n)", leafSHA256: digest(1), leafSPKISHA256: ChainDigest(words: (2, 0, 0, 7)),
                                    notBefore: time, notAfter: time + 7_776_000, issuerSubject: "CN=Test Issuing CA,O=Example",
                                    issuerSPKISHA256: digest(3), issuerSHA256: ChainDigest(words: (4, 0, 0, 7)), anchorSPKISHA256: nil)
            let round = store.beginRound(now: time)
            round.observe(target: "api", address: "192.0.2.1", chain: chain)
            _ = try store.commit(round)
        }
    }

    func testTheChainsOfATargetAreListedOldestFirst() throws {
        let path = folder.appendingPathComponent("state.db").path
        try rememberTwoChains(at: path)
        let r = history("api", config: try config("state: {path: \(path)}\n"))
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertEqual(r.stderr, [])
        XCTAssertTrue(r.stdout.hasPrefix("api: 2 chains, 1 renewals\n"), r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "\n").filter { $0.contains("192.0.2.1") }.count, 2, r.stdout)
        let json = try XCTUnwrap(try history("api", config: try config("state: {path: \(path)}\n"), json: true).json() as? [String: Any])
        XCTAssertEqual(json["target"] as? String, "api")
        XCTAssertEqual((json["chains"] as? [[String: Any]])?.compactMap { ($0["leaf"] as? [String: Any])?["serial"] as? String }, ["01", "02"], "oldest first")
    }

    func testTheFileUnderStateDirectoryIsReadAndATargetWithoutChainsIsStatusOne() throws {
        let path = folder.appendingPathComponent("state.db").path
        try rememberTwoChains(at: path)
        let r = history("other", config: try config(), environment: ["STATE_DIRECTORY": folder.path])
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertEqual(r.pieces, [.stderr("pinguard: no chains remembered for \"other\" in \(path)")])
    }

    func testWithoutStatePathOrStateDirectoryItSaysWhereTheServiceKeepsIt() throws {
        let r = history("api", config: try config())
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stderr.count, 1, r.stderrText)
        XCTAssertTrue(r.stderrText.contains("names no state file"), r.stderrText)
        XCTAssertTrue(r.stderrText.contains("/var/lib/pinguard/state.db"), r.stderrText)
        XCTAssertTrue(r.stderrText.contains("STATE_DIRECTORY=/var/lib/pinguard"), r.stderrText)
    }

    func testAFIFOAsStateFileIsRefusedAtOnceInOneLine() throws {
        let fifo = folder.appendingPathComponent("state.db").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let file = try config("state: {path: \(fifo)}\n")
        // No writer ever comes: a blocked open would never return (the watchdog's minute only stops waiting for it).
        let r = try XCTUnwrap(Watchdog.value { self.history("api", config: file) }, "history blocked on the FIFO")
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.pieces, [.stderr("pinguard: state file \"\(fifo)\": not a regular file (a FIFO)")])
    }

    func testAConfigurationThatDoesNotLoadIsStatusTwo() throws {
        let bad = try PolicyYAML.write("targets: [\n", to: folder, as: "bad.yml")
        let r = history("api", config: bad)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.first?.hasPrefix("pinguard: ") ?? false, r.stderrText)
    }
}
