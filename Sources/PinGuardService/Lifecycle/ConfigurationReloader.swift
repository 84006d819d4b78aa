import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders

/// Runs reloads one at a time, in the order asked, so a slow load is never applied after a newer one; a
/// fetched log list put in force takes its turn in the same queue (`exclusively`).
///
/// A reload reads and validates the file on a thread of its own (the probe pool may be busy with slow
/// targets for a whole timeout), prepares the probe executor, and only then applies the result.
actor ConfigurationReloader {
    /// Reads and validates a configuration file.
    typealias Loader = @Sendable (String) throws(ConfigError) -> LoadedConfiguration

    private let loader: Loader
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(loader: @escaping Loader) { self.loader = loader }

    /// Loads `path`, lets `prepare` take what must be ready before the configuration applies and complete it
    /// (it may refuse with an error), then calls `apply` with what `prepare` returned; all under one turn of
    /// the queue.
    func reload(path: String, prepare: @escaping @Sendable (LoadedConfiguration) throws(ConfigError) -> LoadedConfiguration,
                apply: @escaping @Sendable (LoadedConfiguration) async -> Void) async -> Result<LoadedConfiguration, ConfigError> {
        await exclusively {
            let loader = loader
            let outcome = await Self.onOwnThread { () -> Result<LoadedConfiguration, ConfigError> in
                do throws(ConfigError) {
                    return .success(try prepare(try loader(path)))
                } catch {
                    return .failure(error)
                }
            }
            if case .success(let loaded) = outcome { await apply(loaded) }
            return outcome
        }
    }

    /// Runs `work` in its turn of the queue, after the reloads asked before it.
    func exclusively<T: Sendable>(_ work: @Sendable () async -> T) async -> T {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        defer {
            busy = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        return await work()
    }

    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "pinguard-reload"
            thread.start()
        }
    }
}
