import ArgumentParser
import Foundation
import PinGuardCommands

/// `pinguard history`: the flags of `HistoryCommand`.
struct HistoryArguments: ParsableCommand {
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
        var options = HistoryCommand.Options(name: name)
        options.config = config
        options.json = json
        options.environment = ProcessInfo.processInfo.environment
        try HistoryCommand.run(options).emit()
    }
}
