import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto

/// Opening the service: each step either gives its part or stops the start with a reason (exit status 2).
extension ServeRunner {
    /// The parts of a service opened on its configuration, ready for one round or for serving.
    struct OpenedService {
        let loaded: LoadedConfiguration
        let address: ListenAddress
        let webConfig: WebConfigSource?
        let notifier: SystemdNotifier
        let runtime: PinGuardRuntime
    }

    /// Why the service did not start: the line written for it, and the journal event that also says it, if any.
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
        var event: JournalEntry?

        /// Writes the line on stderr, then sends the event, journal or not configured.
        func report() {
            StandardError.write("pinguard: \(description)", level: .error)
            if let event { JournalSink(enabled: true).send(event) }
        }
    }

    /// The configuration, the listen address and web configuration, the journal, the memory of served chains and
    /// the runtime over them, in that order; the memory's start events are in the journal.
    static func open(_ options: Options) throws(StartFailure) -> OpenedService {
        let loader = ShardedConfigurationLoader(override: options.shard, instance: options.instance)
        let loaded = try loadConfiguration(options.configPath, with: loader)
        let address = try listenAddress(options, loaded: loaded)
        let webConfig = try webConfiguration(options)
        let journal = JournalSink(enabled: loaded.config.journalEnabled, echo: options.logEvents)
        journal.identity = loaded.config.instance.journalFields(shard: loaded.config.shard)
        journal.announce()
        let notifier = SystemdNotifier()
        let memory = try openMemory(loaded)
        let runtime = try makeRuntime(loaded, journal: journal, notifier: notifier, memory: memory, loader: loader)
        for event in memory.startEvents { journal.send(event) }
        return OpenedService(loaded: loaded, address: address, webConfig: webConfig, notifier: notifier, runtime: runtime)
    }

    /// The configuration at `path`; one that does not load is also a journal event.
    static func loadConfiguration(_ path: String, with loader: ShardedConfigurationLoader) throws(StartFailure) -> LoadedConfiguration {
        do { return try loader.load(path: path) } catch {
            throw StartFailure(description: "\(error)", event: .configInvalid(path: path, error: error.description))
        }
    }

    /// The address to listen on (`--listen`, else the config's), free unless only one round runs.
    static func listenAddress(_ options: Options, loaded: LoadedConfiguration) throws(StartFailure) -> ListenAddress {
        let text = options.listen ?? loaded.config.listen
        guard let address = ListenAddress.parse(text) else {
            throw StartFailure(description: "--listen \"\(text)\" is not a listen address (use \":9477\" or \"127.0.0.1:9477\")")
        }
        if !options.once, let problem = ListenCheck.problem(address) {
            throw StartFailure(description: "\(problem) (another pinguard or exporter on that port? choose another with --listen or listen:)")
        }
        return address
    }

    /// `--web.config.file`, read and checked; nil without one, or when only one round runs (nothing is served).
    static func webConfiguration(_ options: Options) throws(StartFailure) -> WebConfigSource? {
        guard let file = options.endpoint.webConfigFile, !options.once else { return nil }
        do { return try WebConfigSource(path: file) } catch {
            throw StartFailure(description: "--web.config.file: \(error)")
        }
    }

    /// The memory of served chains where the configuration and environment place it; says where on stderr.
    static func openMemory(_ loaded: LoadedConfiguration) throws(StartFailure) -> ChainMemory {
        let location = StateLocation.resolve(loaded.config, environment: ProcessInfo.processInfo.environment)
        let memory: ChainMemory
        let shard = loaded.config.shard
        do {
            memory = try ChainMemory(location: location, configured: Set(loaded.config.targets.map(\.name)),
                                     keep: { shard?.includes(hash: HashMod.sum64($0)) ?? true })
        } catch {
            if case .database = location { throw StartFailure(description: "\(error)") }
            throw StartFailure(description: "\(error) (is another pinguard using it? give each instance its own state.path)")
        }
        StandardError.write("pinguard: \(location.summary(unavailable: memory.unavailableCause))")
        return memory
    }

    /// The runtime over the opened parts, reloading through `loader`; the memory is closed when it cannot be made.
    static func makeRuntime(_ loaded: LoadedConfiguration, journal: JournalSink, notifier: SystemdNotifier, memory: ChainMemory,
                            loader: ShardedConfigurationLoader) throws(StartFailure) -> PinGuardRuntime {
        do {
            return try PinGuardRuntime(loaded: loaded, journal: journal, notifier: notifier, memory: memory,
                                       loader: { (path) throws(ConfigError) in try loader.load(path: path) })
        } catch {
            memory.close()
            throw StartFailure(description: "\(error)")
        }
    }
}
