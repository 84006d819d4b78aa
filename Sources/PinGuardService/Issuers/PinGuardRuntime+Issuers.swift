import Foundation
import PinGuardCore

/// The service's schedule for the issuers clients download (IssuerDownloads.swift): passes beside the rounds;
/// when a download arrives, the targets whose paths waited for it are probed again at once (a catch-up), so a
/// Chrome or Apple verdict that needs a downloaded intermediate is known within seconds of the first round.
extension PinGuardRuntime {
    /// The longest wait between two download passes.
    static let issuersPeriod: Double = 1
    /// Download passes a single run (`serve --once`, `probe`) makes: each can reach one issuer further up.
    public static let maxIssuerDepth = 4

    /// Downloads the issuers the searches want until cancelled (shutdown abandons the fetches in flight).
    public func watchIssuers() async {
        while !Task.isCancelled {
            await downloadIssuers()
            try? await clock.sleep(seconds: Self.issuersPeriod)
        }
    }

    /// One download pass; the targets whose paths wait for a URL it recorded are marked to be probed again, and
    /// the scheduler is woken for them. Returns those targets.
    @discardableResult
    public func downloadIssuers() async -> Set<String> {
        let recorded = await issuerDownloads.pass()
        guard !Task.isCancelled, !recorded.isEmpty else { return [] }
        let waiting = Set(store.results.filter { result in
            result.nodes.contains { $0.facts.clientPaths.pendingIssuers.contains(where: recorded.contains) }
        }.map(\.target.name))
        guard !waiting.isEmpty else { return [] }
        state.withLockedValue { $0.probeAgain.formUnion(waiting) }
        wake.wake()
        return waiting
    }

    /// The targets marked to be probed again, taken.
    func takeProbeAgain() -> Set<String> {
        state.withLockedValue { s in
            defer { s.probeAgain = [] }
            return s.probeAgain
        }
    }
}
