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
    /// with the configuration's `fetch` settings; each time can reach one issuer further up, at most `maxIssuerDepth`
    /// times (the service's `IssuerDownloads.maxDepth`).
    mutating func withDownloadedIssuers(_ first: TargetProbe, prober: TLSProber, request: ProbeRequest,
                                        loaded: LoadedConfiguration?) async throws(CommandStop) -> TargetProbe {
        guard let lookups = options.lookups, let issuers = prober.clientPaths?.fetchedIssuers else { return first }
        var probe = first
        let notices = NoticeLines()
        defer { for line in notices.lines { out.error("pinguard: \(line)") } }
        for _ in 0..<Self.maxIssuerDepth where !probe.pendingIssuers.isEmpty {
            let recorded: Bool
            do {
                recorded = try await lookups.issuers(probe.pendingIssuers, into: issuers, fetch: loaded?.config.fetch ?? FetchSettings(),
                                                     notice: { notices.add($0) })
            } catch {
                throw out.fail("pinguard: fetch.ca_file: \(error)")
            }
            guard recorded else { break }
            probe = prober.probeTarget(request)
        }
        return probe
    }

    /// Times one run probes again after downloads.
    static let maxIssuerDepth = 4
}
