import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo

/// `pinguard serve` as one call, as the other commands are (PinGuardCommands): the service of a configuration, or
/// without one the built-in demo (PinGuardDemo), run by `ServeRunner` until it stops.
public enum ServeCommand {
    /// The flags of `pinguard serve`, parsed.
    public struct Options: Sendable {
        /// `--config`: the pinguard.yml to run; nil runs the built-in demo.
        public var config: String?
        /// `--listen`: overrides the config's `listen` (the demo's default is `DemoEnvironment.defaultListen`).
        public var listen: String?
        /// `--once`: one round, a summary, exit.
        public var once = false
        /// `--log-events`: echo journal events on stderr too (the demo always does).
        public var logEvents = false
        /// `--shard I/N`: probe only this slice of the targets.
        public var shard: TargetShard?
        /// `--replica` and `--vantage`: what tells this instance apart in its journal events.
        public var instance = InstanceLabels()
        /// The HTTP endpoint's `--web.*` options.
        public var endpoint = HTTPEndpointOptions()
        /// `--log.level` and `--log.format`: which of the service's lines reach stderr, and how.
        public var log = LogSettings()

        /// Options running `config` (nil: the demo), everything else as without flags.
        public init(config: String?) { self.config = config }

        /// What `ServeRunner` runs for these options on the configuration at `path`.
        func runner(configPath path: String, echoEvents: Bool) -> ServeRunner.Options {
            var options = ServeRunner.Options(configPath: path, listen: listen, once: once, logEvents: echoEvents, shard: shard,
                                              endpoint: endpoint)
            options.instance = instance
            return options
        }
    }

    /// Runs the service (or the demo) until it stops; returns the process exit status: 0, 1 when a `--once` round
    /// rejects or the service failed, 2 for a configuration error.
    public static func run(_ options: Options) async -> Int32 {
        StandardError.configure(options.log)
        if let notice = KeyDecoding.install().notice { StandardError.write("pinguard: \(notice)", level: .info) }
        guard let config = options.config else { return await runDemo(options) }
        return await ServeRunner.run(options.runner(configPath: config, echoEvents: options.logEvents))
    }

    /// The service on the demo's generated configuration, its events always echoed; the demo's folder is removed
    /// when the service stops.
    static func runDemo(_ options: Options) async -> Int32 {
        let demo: DemoEnvironment
        do { demo = try DemoEnvironment.temporary(listen: options.listen, processID: getpid()) } catch {
            say("pinguard: demo: \(error)")
            return 2
        }
        say(demo.banner(listen: options.listen, processID: getpid()))
        let status = await ServeRunner.run(options.runner(configPath: demo.configPath, echoEvents: true))
        demo.remove()
        return status
    }

    /// Writes pinguard's own text to standard error as it is, lines and all (`StandardError` escapes what comes
    /// from outside).
    private static func say(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
