import Foundation
import PinGuardARI
import PinGuardCore

// ACME Renewal Information (RFC 9773) in the service: this folder owns the schedule; the checks and their cache
// are PinGuardARI (`RenewalInfoWatch`, `RenewalInfoClient`, fetching through the runtime's `Downloads`), the
// identifier, window and schedule rules PinGuardCore/ARI, the JSON PinGuardReaders/ARI.

/// The service's schedule of renewal information checks.
extension PinGuardRuntime {
    /// The longest wait between two looks at the served certificates (a new one is checked within it).
    static let renewalInfoPeriod: Double = 60

    /// Checks the renewal information of the certificates served now, off the probe path, until cancelled:
    /// each certificate on its own schedule (`Retry-After`, backoff), a certificate served by many targets
    /// once, one no longer served not at all. A window that changed re-forecasts the targets serving it.
    public func watchRenewalInfo() async {
        while !Task.isCancelled {
            await checkRenewalInfo()
            let wait = min(max(renewalInfo.nextDue.map { $0.timeIntervalSince(clock.now) } ?? Self.renewalInfoPeriod, 1),
                           Self.renewalInfoPeriod)
            try? await clock.sleep(seconds: wait)
        }
    }

    /// One pass: tracks the certificates the results serve now, checks those due, re-forecasts on a change.
    public func checkRenewalInfo() async {
        let loaded = configuration
        var watched: [String: WatchedCertificate] = [:]
        for r in store.results {
            if let w = WatchedCertificate.serving(r, defaults: loaded.config.renewal, catalog: loaded.issuerCatalog) {
                watched[r.target.name] = w
            }
        }
        renewalInfo.track(Set(watched.values))
        let changed = Set(await renewalInfo.checkDue(now: clock.now))
        guard !changed.isEmpty else { return }
        let targets = Set(watched.filter { changed.contains($0.value.certID) }.keys)
        send(store.reforecast(targets: targets))
    }
}
