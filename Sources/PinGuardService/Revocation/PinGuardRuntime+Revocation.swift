import Foundation
import PinGuardCore

/// The service's schedule for CRLs: downloads run beside the rounds, never inside one and never on shutdown's
/// path; when lists arrive, the results that name them are judged again at once, without a probe.
extension PinGuardRuntime {
    /// The longest wait between two download passes when nothing new is wanted.
    static let revocationPeriod: Double = 1

    /// Downloads the CRLs the rounds want until cancelled (shutdown abandons the fetches in flight).
    public func watchRevocation() async {
        while !Task.isCancelled {
            await downloadRevocationLists()
            try? await clock.sleep(seconds: Self.revocationPeriod)
        }
    }

    /// One download pass; the results that name a list it finished are judged again with it, and the CRL
    /// series follow the distribution points the results name now.
    public func downloadRevocationLists() async {
        guard let crlDownloads else { return }
        let finished = await crlDownloads.pass()
        guard !Task.isCancelled, !finished.isEmpty else { return }
        await judgeRevocationAgain(urls: Set(finished.map(\.url)))
        await publishCRLStatuses()
    }

    /// Re-attaches the revocation states of every result that names one of `urls`, and records it unprobed.
    func judgeRevocationAgain(urls: Set<String>) async {
        guard let revocation, !urls.isEmpty else { return }
        let judge = judge(configuration)
        let generation = store.generation
        for old in store.results where old.nodes.contains(where: { node in
            node.facts.success && RevocationChecker.askedPoints(of: node.facts).contains(where: urls.contains)
        }) {
            let probe = await revocation.attach(to: old.probe)
            var result = judge.judge(probe, target: old.target, now: clock.now)
            judge.forecast(&result)
            send(store.record(result, generation: generation, now: clock.now, counted: false))
        }
    }

    /// The CRL series (one per distribution point the results name now; the rest go at once), and the revoked
    /// certificates of every chain: when those change, every target's forecast is made again without them.
    func publishCRLStatuses() async {
        guard let revocation else { return }
        var named: Set<String> = []
        var revoked: Set<String> = []
        for result in store.results {
            for node in result.nodes where node.facts.success { named.formUnion(RevocationChecker.askedPoints(of: node.facts)) }
            revoked.formUnion(result.revokedCertificates)
        }
        let crls = await revocation.cache.statuses(named: named)
        state.withLockedValue { $0.crls = crls }
        if knownRevocations.replace(with: revoked) {
            send(store.reforecast(targets: Set(store.results.map(\.target.name))))
        }
    }
}
