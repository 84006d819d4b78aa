import Foundation
import PinGuardCore
import PinGuardFetch

extension PinGuardRuntime {
    /// The CRL checker for `settings`: the guarded fetcher (refusals said once per host with `notices`) and the
    /// memory's document store (the state file when there is one). A CA file that cannot be used leaves CRLs
    /// unchecked until a restart, said once.
    static func revocationChecker(_ settings: FetchSettings, memory: ChainMemory, notices: RefusalNotices,
                                  clock: any ServiceClock) -> RevocationChecker? {
        do {
            let fetcher = try GuardedFetcher(settings: settings, notices: notices)
            return RevocationChecker(cache: CRLCache(fetcher: fetcher, store: memory.documents, clock: clock), clock: clock)
        } catch {
            StandardError.write("pinguard: CRLs are not checked: \(error)")
            return nil
        }
    }

    /// After a reload that changed `fetch:`: CRLs are fetched with the new settings from the next fetch on;
    /// the lists held stay, as they verified. A fetcher that cannot be made keeps the previous one, and says so.
    func reconfigureFetch(_ settings: FetchSettings) {
        guard let revocation else { return }
        do { revocation.cache.use(try GuardedFetcher(settings: settings, notices: fetchRefusals)) } catch {
            StandardError.write("pinguard: fetch: \(error); CRLs are still fetched with the previous fetch settings")
        }
    }
}
