import Foundation
import PinGuardARI
import PinGuardCommands
import PinGuardCore
import PinGuardFetch
import PinGuardService

/// `probe`'s lookups through the guarded fetcher, which runs on NIO: the one piece of `probe` the commands'
/// library cannot hold, so the executable hands it in. Nothing fetched is kept after the run.
struct GuardedProbeLookups: ProbeLookups {
    func renewalInfo(of certificate: WatchedCertificate, fetch settings: FetchSettings, now: Date) async throws -> RenewalInfoAnswer {
        let client = RenewalInfoClient(fetcher: try GuardedFetcher(settings: settings), store: MemoryDocumentStore())
        return await client.check(certID: certificate.certID, directory: certificate.directory, failures: 0, now: now)
    }

    func revocation(of probe: TargetProbe, fetch settings: FetchSettings,
                    notice: @escaping @Sendable (String) -> Void) async throws -> TargetProbe {
        let fetcher = try GuardedFetcher(settings: settings, notices: RefusalNotices(say: notice))
        let clock = WallClock()
        let checker = RevocationChecker(cache: CRLCache(fetcher: fetcher, store: MemoryDocumentStore(), clock: clock), clock: clock)
        return await checker.attach(to: probe, scheduled: false)
    }
}
