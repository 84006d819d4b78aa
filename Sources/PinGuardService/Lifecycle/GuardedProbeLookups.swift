import Foundation
import PinGuardARI
import PinGuardCommands
import PinGuardCore
import PinGuardCrypto
import PinGuardFetch

/// `probe`'s lookups through the guarded fetcher, which runs on NIO: the one piece of `probe` the commands'
/// library cannot hold, so the executable hands it in (`ProbeCommand.Options.lookups`). The CRLs come as a round's
/// download pass gets them (Revocation/); nothing fetched is kept after the run.
public struct GuardedProbeLookups: ProbeLookups {
    /// Lookups that make a guarded fetcher of the settings each call is given.
    public init() {}

    /// The CA's answer for `certificate`, asked once through a guarded fetcher of `settings`.
    public func renewalInfo(of certificate: WatchedCertificate, fetch settings: FetchSettings, now: Date) async throws -> RenewalInfoAnswer {
        let client = RenewalInfoClient(fetcher: try GuardedFetcher(settings: settings), store: MemoryDocumentStore())
        return await client.check(certID: certificate.certID, directory: certificate.directory, failures: 0, now: now)
    }

    /// The chain's lists as a round's download pass gets them (the first `CRLCache.maxPointsPerCertificate` points
    /// of each certificate, `CRLDownloads.parallel` at a time), then the states judged with them.
    public func revocation(of probe: TargetProbe, fetch settings: FetchSettings,
                           notice: @escaping @Sendable (String) -> Void) async throws -> TargetProbe {
        let fetcher = try GuardedFetcher(settings: settings, notices: RefusalNotices(say: notice))
        let clock = WallClock()
        let downloads = CRLDownloads(cache: CRLCache(clock: clock), fetcher: fetcher, store: MemoryDocumentStore(), clock: clock)
        let checker = RevocationChecker(cache: downloads.cache, clock: clock)
        _ = await checker.attach(to: probe)
        await downloads.pass()
        return await checker.attach(to: probe, want: false)
    }

    /// The caIssuers `urls` downloaded as a round downloads them (`IssuerDownloads`).
    public func issuers(_ urls: [String], into issuers: FetchedIssuers, fetch settings: FetchSettings,
                        notice: @escaping @Sendable (String) -> Void) async throws -> Bool {
        let fetcher = try GuardedFetcher(settings: settings, notices: RefusalNotices(say: notice))
        let downloads = IssuerDownloads(issuers: issuers, fetcher: fetcher, store: MemoryDocumentStore(), clock: WallClock())
        return await downloads.download(urls)
    }
}
