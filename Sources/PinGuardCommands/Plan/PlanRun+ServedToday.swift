import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardState

extension PlanRun {
    /// With `--config` and its state file: per host, the key and certificate hashes of the chains its targets
    /// serve now (leaf, issuer, anchor), read without disturbing a running `serve`; empty otherwise.
    mutating func servedToday() -> [String: Set<String>] {
        guard let config = options.config, let loaded = try? ConfigurationLoader.load(path: config) else { return [:] }
        let location = StateLocation.resolve(loaded.config, environment: options.environment)
        if let hint = location.serviceHint {
            out.error("pinguard: \(config) names no state file, so served chains do not count against reserve pins; \(hint)")
        }
        let hosts = Set(loaded.config.targets.filter { options.hosts.contains($0.host) }.map(\.name))
        let opened: StateStore?
        switch location {
        case .file(let path): opened = FileManager.default.fileExists(atPath: path) ? try? StateStore.open(path: path, readOnly: true) : nil
        case .database(let url): opened = try? StateStore.open(database: url, readOnly: true, keep: { hosts.contains($0) })
        case .memoryOnly: opened = nil
        }
        guard let store = opened else { return [:] }
        defer { store.close() }
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
