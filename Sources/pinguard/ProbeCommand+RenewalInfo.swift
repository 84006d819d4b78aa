import Dispatch
import Foundation
import PinGuardARI
import PinGuardConfig
import PinGuardCore
import PinGuardFetch

extension ProbeCommand {
    /// The CA's renewal window for the probed leaf, asked once through the guarded fetcher (`--config`'s
    /// `fetch` settings, else the defaults): from `--acme-directory`, else `--config`'s `renewal.acme_directory`,
    /// else the catalog's directory for the leaf's issuer. Nil when none is known, or the CA knows no window;
    /// a failure is said on stderr and leaves the forecast as it was.
    func renewalWindow(of result: TargetResult, catalog: IssuerCatalog) throws -> RenewalWindow? {
        let loaded: LoadedConfiguration?
        do { loaded = try config.map { path throws(ConfigError) in try ConfigurationLoader.load(path: path) } } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        var defaults = loaded?.config.renewal ?? RenewalSettings()
        if let acmeDirectory { defaults.acmeDirectory = acmeDirectory }
        guard let watched = WatchedCertificate.serving(result, defaults: defaults, catalog: catalog) else { return nil }
        let fetcher: GuardedFetcher
        do { fetcher = try GuardedFetcher(settings: loaded?.config.fetch ?? FetchSettings()) } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        let client = RenewalInfoClient(fetcher: fetcher, store: MemoryDocumentStore())
        let answer = Self.wait { await client.check(certID: watched.certID, directory: watched.directory, failures: 0, now: Date()) }
        switch answer {
        case .window(let window, _): return window
        case .none: return nil
        case .failed(let reason, _):
            printError("pinguard: renewal information of the leaf: \(reason)")
            return nil
        }
    }

    /// Runs `work` to its end from this synchronous command.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let box = AnswerBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { fatalError("the task ended without an answer") }
        return value
    }
}

/// The answer of a task, handed to the thread waiting for it (written once, before the signal).
private final class AnswerBox<T>: @unchecked Sendable {
    var value: T?
}
