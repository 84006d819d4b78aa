import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardFetch

// The service's downloads, in one place: every capability that downloads (Revocation/ for CRLs, the renewal
// information watch, LogLists/ for CT log lists) fetches through the one `Downloads` of the runtime, which holds
// the guarded fetcher (PinGuardFetch) of the `fetch:` settings in force. The documents are kept in the memory's
// store (PinGuardState, or memory without a state file); what each capability does with them is its own folder's.

/// The one fetcher of the `fetch:` settings in force, for every download of the service: made when first asked
/// for and again when a reload changes `fetch:`, each refusal said once per host. When no fetcher can be made
/// from the settings (`fetch.ca_file` holds no certificate), each download fails with that reason (said once on
/// stderr) and the next one tries to make it again.
public final class Downloads: DocumentFetching, Sendable {
    /// Makes the fetcher of `fetch` settings (the guarded fetcher in production).
    public typealias Maker = @Sendable (FetchSettings, RefusalNotices) throws -> any DocumentFetching

    private struct Held {
        var settings: FetchSettings
        var fetcher: (any DocumentFetching)?
        var said: String?
    }

    private let make: Maker
    private let held: NIOLockedValueBox<Held>
    /// Says each refused download once per host (forgotten when `fetch:` changes).
    public let notices: RefusalNotices

    /// Downloads under `settings`, through fetchers `make` makes (by default the guarded fetcher).
    public init(settings: FetchSettings, notices: RefusalNotices, make: Maker? = nil) {
        self.make = make ?? { settings, notices in try GuardedFetcher(settings: settings, notices: notices) }
        self.notices = notices
        held = NIOLockedValueBox(Held(settings: settings))
    }

    /// The fetcher of `settings`: the one in force when they are its settings (made now if it is not yet), else
    /// one made for them.
    public func fetcher(for settings: FetchSettings) -> Result<any DocumentFetching, FetchSetupError> {
        let current = held.withLockedValue { $0 }
        if current.settings == settings, let fetcher = current.fetcher { return .success(fetcher) }
        let made = made(settings)
        if case .success(let fetcher) = made {
            held.withLockedValue { if $0.settings == settings { $0.fetcher = fetcher } }
        }
        return made
    }

    /// Fetches with the fetcher of the settings in force; when none can be made, fails with the reason.
    public func fetch(_ request: FetchRequest) async -> FetchOutcome {
        switch fetcher(for: held.withLockedValue { $0.settings }) {
        case .success(let fetcher): return await fetcher.fetch(request)
        case .failure(let error):
            let first = held.withLockedValue { h in
                defer { h.said = error.description }
                return h.said != error.description
            }
            if first { StandardError.write("pinguard: nothing is downloaded (CRLs, renewal information, CT log lists): \(error)", level: .warn) }
            return .failed("\(EchoedInput.quoted(request.url, limit: 200)): not downloaded: \(error)")
        }
    }

    /// Takes new `fetch:` settings: a fetcher of its own, made at the next download; each host's refusal is said
    /// again.
    public func use(_ settings: FetchSettings) {
        notices.forget()
        held.withLockedValue { $0 = Held(settings: settings) }
    }

    private func made(_ settings: FetchSettings) -> Result<any DocumentFetching, FetchSetupError> {
        do { return .success(try make(settings, notices)) } catch let error as FetchSetupError {
            return .failure(error)
        } catch {
            return .failure(FetchSetupError(describing: error))
        }
    }
}
