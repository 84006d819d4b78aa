import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardService

/// `pinguard serve`: the flags of `ServeCommand` (PinGuardService).
struct ServeArguments: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Probe the configured targets on a schedule; serve /metrics and write journal events.",
        discussion: """
        Without --config, runs the built-in demo: a generated PKI and TLS endpoints on 127.0.0.1, served by \
        pinguard itself; the demo listens on 127.0.0.1:9477 unless --listen says otherwise. \
        --once: one round, a summary on stdout; exit 0 when every client accepts every target, 1 when any \
        rejects or any probe fails, 2 on a configuration error. SIGHUP (or POST /-/reload with \
        --web.enable-lifecycle) reloads the configuration; a bad one is rejected and the running one kept.
        """)

    @Option(name: [.customLong("config"), .customLong("config.file")], help: "The pinguard.yml to run.")
    var config: String?

    @Option(name: [.customLong("listen"), .customLong("web.listen-address")],
            help: "HTTP listen address, overriding the config's `listen` (e.g. :9477, 127.0.0.1:9477).")
    var listen: String?

    @Flag(name: .customLong("web.enable-lifecycle"), help: "Serve POST /-/reload (without it, it answers 403).")
    var enableLifecycle = false

    @Option(name: .customLong("web.config.file"),
            help: ArgumentHelp("exporter-toolkit web configuration: tls_server_config, basic_auth_users, http_server_config.headers.",
                               valueName: "file"))
    var webConfigFile: String?

    @Option(name: .customLong("web.read-header-timeout"), help: ArgumentHelp("Time a client has to send a whole request head (TLS handshake included).", valueName: "duration"))
    var readHeaderTimeout = "10s"

    @Option(name: .customLong("web.write-timeout"), help: ArgumentHelp("Time a response may take to send; slower readers are dropped.", valueName: "duration"))
    var writeTimeout = "30s"

    @Option(name: .customLong("web.max-connections-per-client"), help: ArgumentHelp("HTTP connections one client address may hold (0: no cap).", valueName: "n"))
    var maxConnectionsPerClient = 16

    @Flag(help: "Run one round, print a summary, exit.")
    var once = false

    @Flag(name: .customLong("log-events"), help: "Also print journal events on stderr.")
    var logEvents = false

    @Option(help: "Probe only shard I of N of the targets (by hashmod of the target name, as Prometheus does), e.g. 0/3; overrides the config's `shard:`.")
    var shard: String?

    @Option(name: .customLong("log.level"), help: ArgumentHelp("Only log lines at this level and above: debug, info, warn, error.", valueName: "level"))
    var logLevel = "info"

    @Option(name: .customLong("log.format"), help: ArgumentHelp("How log lines are written: plain (pinguard: ...), logfmt or json.", valueName: "format"))
    var logFormat = "plain"

    @Option(help: "Which replica of its shard this instance is, carried by its journal events (PINGUARD_REPLICA); overrides the config's `instance.replica`.")
    var replica: String?

    @Option(help: "Where this instance probes from, carried by its journal events (PINGUARD_VANTAGE); overrides the config's `instance.vantage`.")
    var vantage: String?

    func validate() throws {
        var options = ServeCommand.Options(config: config)
        do { try takeFlags(into: &options) } catch { throw ValidationError(error.description) }
    }

    /// `--shard`, `--replica`, `--vantage` and `--log.*` into `options` (ServeCommand checks them).
    func takeFlags(into options: inout ServeCommand.Options) throws(ServeCommand.Options.FlagError) {
        try options.take(shard: shard, replica: replica, vantage: vantage, logLevel: logLevel, logFormat: logFormat)
    }

    /// The `--web.*` options into `options`, or a one-line error naming the bad one and exit status 2.
    func takeEndpointFlags(into options: inout ServeCommand.Options) throws {
        do {
            try options.takeEndpoint(enableLifecycle: enableLifecycle, webConfigFile: webConfigFile, readHeaderTimeout: readHeaderTimeout,
                                     writeTimeout: writeTimeout, maxConnectionsPerClient: maxConnectionsPerClient)
        } catch {
            printError("pinguard: \(error.description)")
            throw Exit.configuration
        }
    }

    func run() async throws {
        var options = ServeCommand.Options(config: config)
        options.listen = listen
        options.once = once
        options.logEvents = logEvents
        try takeFlags(into: &options)
        try takeEndpointFlags(into: &options)
        let status = await ServeCommand.run(options)
        // The service has shut down and written its state; a probe abandoned on a silent peer may still sit in
        // OpenSSL on its own thread. Exiting without the libraries' exit handlers (OpenSSL's cleanup among them)
        // keeps them from freeing what that thread still holds.
        fflush(nil)
        _exit(status)
    }
}
