import Foundation
import PinGuardARI
import PinGuardCore

/// The service's half of ACME Renewal Information; the others are PinGuardCore/ARI (identifier, window,
/// schedule), PinGuardReaders/ARI (the JSON) and PinGuardARI (the checks, through the guarded fetcher).
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
