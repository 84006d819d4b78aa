import Foundation
import PinGuardARI
import PinGuardCommands
import PinGuardCore
import PinGuardFetch

/// `probe`'s lookups through the guarded fetcher, which runs on NIO: the one piece of `probe` the commands'
/// library cannot hold, so the executable hands it in. Nothing fetched is kept after the run.
struct GuardedProbeLookups: ProbeLookups {
    func renewalInfo(of certificate: WatchedCertificate, fetch settings: FetchSettings, now: Date) async throws -> RenewalInfoAnswer {
        let client = RenewalInfoClient(fetcher: try GuardedFetcher(settings: settings), store: MemoryDocumentStore())
        return await client.check(certID: certificate.certID, directory: certificate.directory, failures: 0, now: now)
    }
}
