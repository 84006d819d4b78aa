import ArgumentParser
import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardReaders
import PinGuardService
import PinGuardState

/// `pinguard history`: the chains a target served, read from the state file without disturbing `serve`.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the chains a target served, oldest first, each renewal marked (key kept or not, issuer changed or not).",
        discussion: """
        Reads the state file of the configuration read-only, found as pinguard serve finds it (state.path, \
        else $STATE_DIRECTORY/state.db): it never blocks a running pinguard serve. Exit 0 with the history, 1 when the target has none, 2 when \
        there is no state file to read.
        """)

    @Argument(help: "The target's name (its `name`, by default HOST:PORT).")
    var name: String

    @Option(name: [.customLong("config"), .customLong("config.file")], help: "The pinguard.yml whose state file to read.")
    var config = "/etc/pinguard/pinguard.yml"

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let loaded: LoadedConfiguration
        do { loaded = try ConfigurationLoader.load(path: config) } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        let location = StateLocation.resolve(loaded.config, environment: ProcessInfo.processInfo.environment)
        let path: String
        switch location {
        case .file(let file): path = file
        case .memoryOnly(let reason):
            printError("pinguard: \(config) names no state file (\(reason)), so there is no history to read; "
                       + (location.serviceHint ?? ""))
            throw Exit.configuration
        }
        let store: StateStore
        do { store = try StateStore.open(path: path, readOnly: true) } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        defer { store.close() }
        let chains = store.history(target: name)
        guard !chains.isEmpty else {
            printError("pinguard: no chains remembered for \(EchoedInput.quoted(name)) in \(path)")
            throw Exit.rejected
        }
        print(json ? HistoryReport.json(target: name, chains: chains) : HistoryReport.table(target: name, chains: chains), terminator: "")
    }
}
