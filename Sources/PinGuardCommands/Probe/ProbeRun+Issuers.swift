import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardProbe

/// `probe` and the issuers Chrome and Apple download: the searches note the caIssuers URLs they would fetch, the
/// lookups download them, and the target is probed again with them (PinGuardCrypto/ClientPaths, FetchedIssuers).
extension ProbeRun {
    /// `probe`, probed again after downloading the caIssuers URLs its client paths wait for (Chrome and Apple
    /// download a missing issuer), through the lookups with the configuration's `fetch` settings; each pass can
    /// reach one issuer further up, at most as many passes as `serve --once` makes.
    mutating func withDownloadedIssuers(_ first: TargetProbe, prober: TLSProber, request: ProbeRequest,
                                        loaded: LoadedConfiguration?) async throws(CommandStop) -> TargetProbe {
        guard let lookups = options.lookups, let issuers = prober.clientPaths?.fetchedIssuers else { return first }
        var probe = first
        let notices = NoticeLines()
        defer { for line in notices.lines { out.error("pinguard: \(line)") } }
        for _ in 0..<Self.maxIssuerDepth where probe.nodes.contains(where: { !$0.clientPaths.pendingIssuers.isEmpty }) {
            let recorded: Bool
            do { recorded = try await lookups.issuers(issuers, fetch: loaded?.config.fetch ?? FetchSettings(), notice: { notices.add($0) }) } catch {
                throw out.fail("pinguard: fetch.ca_file: \(error)")
            }
            guard recorded else { break }
            probe = prober.probeTarget(request)
        }
        return probe
    }

    /// Download passes one run makes (as `serve --once` does).
    static let maxIssuerDepth = 4
}
