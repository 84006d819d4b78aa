import Foundation
import Dispatch
import PinGuardCore
import PinGuardProbe

/// The address a hop connects to: every address of its host resolved and checked against `fetch.networks`.
enum FetchAddresses {
    /// What resolution and the check concluded.
    enum Verdict: Sendable {
        /// Every address is permitted; connect to this one (as text).
        case checked(String)
        /// An address lies outside `fetch.networks` (or in a guarded range): nothing is dialled.
        case refused(String)
        /// The name did not resolve.
        case failed(String)
    }

    /// Resolves `url`'s host on a thread that may block (the resolver waits on glibc, at most `seconds`), then
    /// checks each address.
    /// A cancelled fetch (shutdown) stops the resolver's wait at once.
    static func resolve(_ url: FetchURL, settings: FetchSettings, within seconds: Double) async -> Verdict {
        let cancelled = CancelledFlag()
        let resolved = await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<ResolvedTarget, Never>) in
                DispatchQueue.global().async {
                    done.resume(returning: NameResolution.addresses(of: url.host, port: url.port, timeout: seconds,
                                                                    cancelled: { cancelled.isSet }))
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return verdict(resolved, url: url, settings: settings)
    }

    /// The verdict on resolved addresses: refused if any one is not permitted, else the first.
    static func verdict(_ resolved: ResolvedTarget, url: FetchURL, settings: FetchSettings) -> Verdict {
        if let error = resolved.resolution.error { return .failed(error) }
        if let bad = resolved.all.first(where: { !settings.permits(address: $0.bytes) }) {
            return .refused("address \(bad.description(port: url.port)) of \(url.host) is outside fetch.networks "
                            + "(loopback, private, link-local and metadata addresses are reached only when fetch.networks lists them)")
        }
        guard let first = resolved.all.first else { return .failed("resolve \(url.host): no address") }
        return .checked(first.ipText)
    }
}

/// A flag a cancellation handler sets and a blocking resolver polls.
final class CancelledFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Whether it was set.
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Sets it.
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
