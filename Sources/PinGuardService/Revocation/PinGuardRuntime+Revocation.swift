import Foundation
import PinGuardCore

extension PinGuardRuntime {
    /// After a reload that changed `fetch:`: CRLs are fetched with the new settings from the next fetch on;
    /// the lists held stay, as they verified. A fetcher that cannot be made keeps the previous one, and says so.
    func reconfigureFetch(_ settings: FetchSettings) {
        guard let revocation else { return }
        do { revocation.cache.use(try ServeRunner.fetcher(settings)) } catch {
            StandardError.write("pinguard: fetch: \(error); CRLs are still fetched with the previous fetch settings")
        }
    }
}
