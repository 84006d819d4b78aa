import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardState

extension PlanRun {
    /// `--config`'s state store (a file or a database), opened read-only without disturbing a running `serve`, with
    /// the targets of the hosts planned for; nil without `--config` or a store.
    mutating func openState(_ loaded: LoadedConfiguration?) -> StateStore? {
        guard let config = options.config, let loaded else { return nil }
        let location = StateLocation.resolve(loaded.config, environment: options.environment)
        if let hint = location.serviceHint {
            out.error("pinguard: \(config) names no state file, so served chains do not count against reserve pins; \(hint)")
        }
        let hosts = Set(loaded.config.targets.filter { options.hosts.contains($0.host) }.map(\.name))
        return StoredIssuers.openState(loaded, environment: options.environment, keep: { hosts.contains($0) })
    }

    /// Per host, the key and certificate hashes of the chains its targets serve now (leaf, issuer, anchor), from
    /// `store`; empty without one.
    func servedToday(_ store: StateStore?, loaded: LoadedConfiguration?) -> [String: Set<String>] {
        guard let loaded, let store else { return [:] }
        var served: [String: Set<String>] = [:]
        for target in loaded.config.targets where options.hosts.contains(target.host) {
            let history = store.history(target: target.name)
            for address in Set(history.map(\.address)) {
                guard let i = RenewalClassifier.latestIndex(at: address, in: history) else { continue }
                let c = history[i].chain
                let hashes = [c.leafSPKISHA256, c.leafSHA256, c.issuerSPKISHA256, c.issuerSHA256] + (c.anchorSPKISHA256.map { [$0] } ?? [])
                served[target.host, default: []].formUnion(hashes.map(\.base64))
            }
        }
        return served
    }
}
