import ArgumentParser
import Foundation
import PinGuardCommands

/// `pinguard check-config`: the flags of `CheckConfigCommand`.
struct CheckConfigArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a config file and every policy file it loads; exit 2 on the first error.")

    @Argument(help: "The pinguard.yml to check.")
    var file: String

    func run() throws {
        var options = CheckConfigCommand.Options(file: file, now: Date())
        options.environment = ProcessInfo.processInfo.environment
        try CheckConfigCommand.run(options).emit()
    }
}
