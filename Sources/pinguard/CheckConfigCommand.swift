import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardConfig
import PinGuardCrypto
import PinGuardProbe
import PinGuardService
import PinGuardState

/// `pinguard check-config`: validate a config and every policy it loads.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a config file and every policy file it loads; exit 2 on the first error.")

    @Argument(help: "The pinguard.yml to check.")
    var file: String

    func run() throws {
        do {
            let loaded = try ConfigurationLoader.load(path: file)
            // The service loads client identities when it starts; a bad key or password fails here first.
            _ = try ClientIdentity.loadAll(loaded.config.targets)
            // A rejected bundle is not a configuration error (the apps keep their pins); say what they keep.
            for b in loaded.bundles { print(b.summary) }
            print("\(file): ok: \(loaded.config.targets.count) targets, \(loaded.policySets.count) policy sets (\(loaded.policySets.map { EchoedInput.bare($0.name, limit: 80) }.joined(separator: ", ")))")
            let location = StateLocation.resolve(loaded.config, environment: ProcessInfo.processInfo.environment)
            // The state file is checked as serve opens it, so both say the same about it.
            var refused: StateError?
            if case .file(let path) = location { refused = StateStore.check(path: path) }
            print(location.summary(unavailable: refused?.message))
            if let hint = location.serviceHint { print("note: \(hint)") }
            if let refused { printError("pinguard: warning: \(refused.message): serve will run without it and write nothing to it") }
            var ct = loaded.config.ct
            for line in CommandCT.fetchedLists(loaded, ct: &ct) { print(line) }
            for w in ct.staleListWarnings(at: Date(), sets: loaded.policySets) { printError("pinguard: warning: \(w)") }
        } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
    }
}
