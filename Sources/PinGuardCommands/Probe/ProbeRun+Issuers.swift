import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardProbe

/// `probe` and the issuers Chrome and Apple download: the searches name the caIssuers URLs they would fetch
/// (`TargetProbe.pendingIssuers`), the lookups download them, and the target is probed again with them, as a round
/// of the service does (PinGuardCrypto/ClientPaths, FetchedIssuers; PinGuardService/Issuers).
extension ProbeRun {
    /// `probe`, probed again after downloading the caIssuers URLs its client paths wait for, through the lookups
    /// with the configuration's `fetch` settings (`TargetProbe.resolvingIssuers`, as a round does).
    mutating func withDownloadedIssuers(_ first: TargetProbe, prober: TLSProber, request: ProbeRequest,
                                        loaded: LoadedConfiguration?) async throws(CommandStop) -> TargetProbe {
        guard let lookups = options.lookups, let issuers = prober.clientPaths?.fetchedIssuers else { return first }
        let settings = loaded?.config.fetch ?? FetchSettings()
        let notices = NoticeLines()
        defer { for line in notices.lines { out.error("pinguard: \(line)") } }
        do {
            return try await first.resolvingIssuers(download: { urls in
                try await lookups.issuers(urls, into: issuers, fetch: settings, notice: { notices.add($0) })
            }, again: { prober.probeTarget(request) })
        } catch {
            throw out.fail("pinguard: fetch.ca_file: \(error)")
        }
    }
}
