import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardState

/// `pinguard check-config`: a configuration and every file it loads, checked as `serve` loads them.
public enum CheckConfigCommand {
    /// What `check-config` is asked to do.
    public struct Options: Sendable {
        /// The pinguard.yml to check.
        public var file: String
        /// The environment the state file is found in, as `serve` finds it (`$STATE_DIRECTORY`).
        public var environment: [String: String] = [:]
        /// The time log lists are judged stale at.
        public var now: Date

        /// Options checking `file` at `now`.
        public init(file: String, now: Date) {
            self.file = file
            self.now = now
        }
    }

    /// One line with what loaded, the bundles' summaries, where served chains are remembered and the log lists
    /// `serve` fetches on stdout; warnings on stderr; status 2 on the first error.
    public static func run(_ options: Options) -> CommandOutcome {
        var run = CheckConfigRun(options: options)
        return run.outcome()
    }
}

/// One `check-config` run and the output it writes.
struct CheckConfigRun: CommandRun {
    let options: CheckConfigCommand.Options
    var out = CommandOutput()

    init(options: CheckConfigCommand.Options) { self.options = options }

    mutating func perform() throws(CommandStop) -> Int32 {
        let file = options.file
        let loaded: LoadedConfiguration
        do {
            loaded = try ConfigurationLoader.load(path: file)
            // The service loads client identities when it starts; a bad key or password fails here first.
            _ = try ClientIdentity.loadAll(loaded.config.targets)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
        for f in loaded.importFindings { out.error(f.description) }
        // A rejected bundle is not a configuration error (the apps keep their pins); say what they keep.
        for b in loaded.bundles { out.write(b.summary + "\n") }
        out.write("\(file): ok: \(loaded.config.targets.count) targets, \(loaded.policySets.count) policy sets "
                  + "(\(loaded.policySets.map { EchoedInput.bare($0.name, limit: 80) }.joined(separator: ", ")))\n")
        stateFile(loaded)
        var ct = loaded.config.ct
        for line in CommandCT.fetchedLists(loaded, ct: &ct) { out.write(line + "\n") }
        for w in ct.staleListWarnings(at: options.now, sets: loaded.policySets) { out.error("pinguard: warning: \(w)") }
        return CommandStatus.ok
    }

    /// Where served chains are remembered; the state file is checked as `serve` opens it, so both say the same
    /// about it.
    mutating func stateFile(_ loaded: LoadedConfiguration) {
        let location = StateLocation.resolve(loaded.config, environment: options.environment)
        var refused: StateError?
        switch location {
        case .file(let path): refused = StateStore.check(path: path)
        case .database(let url): refused = StateStore.check(database: url)
        case .memoryOnly: break
        }
        out.write(location.summary(unavailable: refused?.message) + "\n")
        if let hint = location.serviceHint { out.write("note: \(hint)\n") }
        guard let refused else { return }
        if case .database = location {
            out.error("pinguard: warning: \(refused.message): serve will not start until the database can be used")
        } else {
            out.error("pinguard: warning: \(refused.message): serve will run without it and write nothing to it")
        }
    }
}
