import Foundation
import PinGuardTestSupport
import XCTest

/// One `pinguard serve` probing every kind of target every 2 s, shared by the tests that only read from it.
/// Started on first use, killed by PID when the test process exits.
///
/// Two of them: `shared()` runs pinguard directly with the journal off and its events echoed on stderr
/// (`--log-events`), for the metrics and HTTP tests, and needs no root; `journaled()` runs it inside a
/// private journald, for the tests that read the events back from the journal, as replica `r1` in vantage point
/// `eu-west`.
final class RunningService: Sendable {
    let world: ServiceWorld
    let serve: ServeProcess
    let configPath: String
    /// Target names in config order.
    let targetNames: [String]

    private static let direct: Result<RunningService, Error> = Result { try RunningService(journal: false) }
    private static let withJournal: Result<RunningService, Error> = Result { try RunningService(journal: true) }

    /// The service without a journal, with its first round done.
    static func shared() throws -> RunningService {
        _ = try ServiceWorld.direct()
        return try direct.get()
    }

    /// The service inside a private journald, with its first round done.
    static func journaled() throws -> RunningService {
        _ = try ServiceWorld.privileged(for: "reads pinguard's events back from a private journald")
        return try withJournal.get()
    }

    private init(journal: Bool) throws {
        world = try journal ? ServiceWorld.privileged(for: "a private journald") : ServiceWorld.direct()
        let dir = try TemporaryDirectory.make(journal ? "pinguard-svc-journal" : "pinguard-svc-main")
        let targets = [world.healthy, world.expiring, world.rotated, world.backup, world.down(), world.uncovered]
        targetNames = targets.map(\.name)
        configPath = try world.writeConfig(in: dir, targets: targets, journal: journal)
        serve = journal ? try ServeProcess(arguments: ["--config", configPath, "--replica", "r1", "--vantage", "eu-west"])
                        : try ServeProcess(arguments: ["--config", configPath, "--log-events"], mode: .direct)
        // A safety net for a service that never gets ready, not a measure of how fast it does.
        guard Polling.holds(within: 60, every: 0.05, { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }) else {
            throw HarnessError("not ready within 60 s:\n\(serve.stderr)")
        }
    }
}
