import Foundation
import PinGuardCore

/// `pinguard history`: the chains a target served, oldest first, each renewal marked.
public enum HistoryReport {
    /// The history as JSON: `{"target", "chains": [{"address", "first_seen", "last_seen", "leaf": {"serial",
    /// "spki_sha256", "certificate_sha256", "not_before", "not_after"}, "issuer": {"subject", "spki_sha256"},
    /// "renewal": null | {"key_reused", "issuer_changed"}}]}`; times RFC 3339, hashes base64 (as pins).
    public static func json(target: String, chains: [StoredChain]) -> String {
        let object: [String: Any] = ["target": target, "chains": chains.map(chainObject)]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func chainObject(_ c: StoredChain) -> [String: Any] {
        var renewal: Any = NSNull()
        if case .renewal(let keyReused, let issuerChanged) = c.arrival {
            renewal = ["key_reused": keyReused, "issuer_changed": issuerChanged]
        }
        return [
            "address": c.address, "first_seen": time(c.firstSeen), "last_seen": time(c.lastSeen),
            "leaf": ["serial": c.chain.leafSerial, "spki_sha256": c.chain.leafSPKISHA256.base64,
                     "certificate_sha256": c.chain.leafSHA256.base64, "not_before": time(c.chain.notBefore),
                     "not_after": time(c.chain.notAfter)] as [String: Any],
            "issuer": ["subject": c.chain.issuerSubject, "spki_sha256": c.chain.issuerSPKISHA256.base64] as [String: Any],
            "renewal": renewal,
        ]
    }

    /// The history as a table: one row per chain, the renewals spelled out.
    public static func table(target: String, chains: [StoredChain]) -> String {
        let rows = chains.map { c -> [String] in
            [String(time(c.firstSeen).prefix(16)), String(time(c.lastSeen).prefix(16)), c.address, c.chain.leafSerial,
             String(c.chain.leafSPKISHA256.base64.prefix(12)) + "…", String(time(c.chain.notAfter).prefix(10)),
             EchoedInput.bare(c.chain.issuerName, limit: 40), mark(c.arrival)]
        }
        let renewals = chains.filter { if case .renewal = $0.arrival { return true } else { return false } }.count
        return "\(EchoedInput.bare(target)): \(chains.count) chains, \(renewals) renewals\n"
            + TextTable.render(header: ["first seen", "last seen", "address", "serial", "leaf key", "not after", "issuer", "arrival"],
                               rows: rows)
    }

    static func mark(_ arrival: ChainArrival) -> String {
        switch arrival {
        case .firstSight: return "first seen"
        case .renewal(let keyReused, let issuerChanged):
            return "renewal, " + (keyReused ? "key kept" : "new key") + (issuerChanged ? ", issuer changed" : "")
        case .addressCaughtUp: return "followed another address"
        case .rollback: return "rollback to an older leaf"
        case .sameLeaf: return "same leaf, another issuing certificate"
        }
    }

    static func time(_ seconds: Int64) -> String { RFC3339.format(Date(timeIntervalSince1970: TimeInterval(seconds))) }
}
