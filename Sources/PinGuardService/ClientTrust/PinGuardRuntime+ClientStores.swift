import Foundation
import PinGuardConfig
import PinGuardCore

/// The clients' trust stores in the service: the judge is built with the configuration (`LoadedConfiguration`)
/// and handed to the prober; here, the warning about a store older than its refresh interval, once per store
/// and data date for the process (docs/reference.md, Clients and their stores).
extension PinGuardRuntime {
    /// Warns once about each client store in force whose data is older than its refresh interval.
    func warnStaleClientStores() {
        let loaded = configuration
        guard loaded.config.caFile == nil else { return }
        for store in loaded.clientPaths?.stores.map(\.data) ?? [] where store.isStale(at: clock.now) {
            let key = "client-store \(store.client.rawValue) \(store.sourceDate.timeIntervalSince1970)"
            guard state.withLockedValue({ $0.staleListsWarned.insert(key).inserted }) else { continue }
            StandardError.write("pinguard: warning: \(ClientTrustStores.staleWarning(store, now: clock.now))", level: .warn)
        }
    }
}
