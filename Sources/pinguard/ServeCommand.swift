import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PinGuardCore
import PinGuardDemo
import PinGuardService

/// `pinguard serve`: the service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Probe the configured targets on a schedule; serve /metrics and write journal events.",
        discussion: """
        Without --config, runs the built-in demo: a generated PKI and TLS endpoints on 127.0.0.1, served by \
        pinguard itself; the demo listens on 127.0.0.1:9477 unless --listen says otherwise. \
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

    @Option(help: "Probe only shard I of N of the targets (by hashmod of the target name, as Prometheus does), e.g. 0/3; overrides the config's `shard:`.")
    var shard: String?

    func validate() throws {
        if let shard, TargetShard(shard) == nil {
            throw ValidationError("--shard \"\(shard)\" is not I/N with 0 <= I < N (e.g. 0/3)")
        }
    }

    func run() async throws {
        var path = config
        var demo: DemoEnvironment?
        if path == nil {
            let folder = NSTemporaryDirectory() + "pinguard-demo-\(getpid())"
            do { demo = try DemoEnvironment(directory: folder, listen: listen ?? "127.0.0.1:9477") } catch {
                printError("pinguard: demo: \(error)")
                throw Exit.configuration
            }
            path = demo?.configPath
            let port = ListenAddress.parse(listen ?? "127.0.0.1:9477")?.port ?? 9477
            printError("""
            pinguard: no --config given: running the built-in demo (4 loopback TLS endpoints, 2 pinned apps).
              config and policies: \(folder)  (edit them, then `kill -HUP \(getpid())` or `curl -X POST localhost:\(port)/-/reload`)
              metrics:             curl -s http://127.0.0.1:\(port)/metrics | grep -E 'pinguard_policy_(accept|decision_info)'
              journal events:      journalctl -t pinguard -o verbose   (or: journalctl PINGUARD_EVENT=pin_mismatch)
              stop:                Ctrl-C
            """)
        }
        let status = await ServeRunner.run(.init(configPath: path!, listen: listen, once: once, logEvents: logEvents || demo != nil,
                                                 shard: shard.flatMap(TargetShard.init)))
        if let demo {
            demo.stop()
            try? FileManager.default.removeItem(atPath: demo.directory)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
