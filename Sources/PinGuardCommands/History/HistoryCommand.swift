import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardState

/// `pinguard history`: the chains a target served, read from the state file without disturbing `serve`.
public enum HistoryCommand {
    /// What `history` is asked to do.
    public struct Options: Sendable {
        /// The target's name (its `name`, by default HOST:PORT).
        public var name: String
        /// The pinguard.yml whose state file to read.
        public var config = "/etc/pinguard/pinguard.yml"
        /// Whether to print JSON instead of a table.
        public var json = false
        /// The environment the state file is found in, as `serve` finds it (`$STATE_DIRECTORY`).
        public var environment: [String: String] = [:]

        /// Options reading the history of the target `name`.
        public init(name: String) { self.name = name }
    }

    /// The chains, oldest first, as a table (or JSON) on stdout; status 1 when the target has none, 2 when
    /// there is no state file to read.
    public static func run(_ options: Options) -> CommandOutcome {
        var run = HistoryRun(options: options)
        return run.outcome()
    }
}

/// One `history` run and the output it writes.
struct HistoryRun: CommandRun {
    let options: HistoryCommand.Options
    var out = CommandOutput()

    init(options: HistoryCommand.Options) { self.options = options }

    mutating func perform() throws(CommandStop) -> Int32 {
        let name = options.name
        let location = try stateLocation()
        let path = location.written ?? ""
        let store: StateStore
        do {
            if case .database(let url) = location {
                store = try StateStore.open(database: url, readOnly: true, keep: { $0 == name })
            } else {
                store = try StateStore.open(path: path, readOnly: true)
            }
        } catch {
            throw out.fail("pinguard: \(error)")
        }
        defer { store.close() }
        let chains = store.history(target: name)
        guard !chains.isEmpty else {
            throw out.fail("pinguard: no chains remembered for \(EchoedInput.quoted(name)) in \(path)", status: CommandStatus.rejected)
        }
        out.write(options.json ? HistoryReport.json(target: name, chains: chains) : HistoryReport.table(target: name, chains: chains))
        return CommandStatus.ok
    }

    /// The state file or database of the configuration, found as `serve` finds it; none is status 2 with the hint.
    mutating func stateLocation() throws(CommandStop) -> StateLocation {
        let loaded: LoadedConfiguration
        do { loaded = try ConfigurationLoader.load(path: options.config) } catch { throw out.fail("pinguard: \(error)") }
        let location = StateLocation.resolve(loaded.config, environment: options.environment)
        switch location {
        case .file, .database: return location
        case .memoryOnly(let reason):
            throw out.fail("pinguard: \(options.config) names no state file (\(reason)), so there is no history to read; "
                           + (location.serviceHint ?? ""))
        }
    }
}
