import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardService

/// `pinguard serve`: the service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Probe the configured targets on a schedule; serve /metrics and write journal events.",
        discussion: """
        Without --config, runs the built-in demo: local TLS endpoints made on the fly (needs openssl and nginx). \
        --once: one round, a summary on stdout; exit 0 when every client accepts every target, 1 when any \
        rejects or any probe fails, 2 on a configuration error. SIGHUP or POST /-/reload reloads the configuration; \
        a bad one is rejected and the running one kept.
        """)

    @Option(help: "The pinguard.yml to run.")
    var config: String?

    @Option(help: "HTTP listen address, overriding the config's `listen` (e.g. :9477, 127.0.0.1:9477).")
    var listen: String?

    @Flag(help: "Run one round, print a summary, exit.")
    var once = false

    @Flag(name: .customLong("log-events"), help: "Also print journal events on stderr.")
    var logEvents = false

    func run() async throws {
        guard let config else {
            throw ValidationError("give --config FILE (the demo is `scripts/demo.sh`)")
        }
        let status = await ServeRunner.run(.init(configPath: config, listen: listen, once: once, logEvents: logEvents,
                                                 linter: LintHook.findings))
        if status != 0 { throw ExitCode(status) }
    }
}

/// Lint findings of loaded policies, for the service (metrics and journal events).
enum LintHook {
    @Sendable static func findings(_ sets: [PolicySet], _ now: Date) -> [(count: LintCount, entries: [JournalEntry])] { [] }
}
