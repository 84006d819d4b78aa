import Foundation

extension PolicyLinter.Context {
    /// `retired-issuer` and `issuer-pool-coverage`: pins on intermediates of the catalog's pools, checked
    /// against the intermediates their CA issues from now.
    mutating func lintIssuerPools(_ p: HostPolicy, pattern: String, line: Int?) {
        guard !catalog.pools.isEmpty else { return }
        let keys = p.pins.filter { $0.type != .certificate }
        let pinned = Set(keys.map(\.hash))
        var reported = Set<[String]>()
        for pin in keys {
            guard let held = catalog.pool(holding: pin.hash) else { continue }
            let op = held.pool.operatorName.isEmpty ? held.pool.name : held.pool.operatorName
            if held.issuer.active == false {
                add(.retiredIssuer, pattern: pattern, line: pin.line ?? line,
                    "pins \(op) \(held.issuer.name), an intermediate \(op) no longer issues from: the next renewal comes from another one",
                    hint: "pin the intermediates \(op) issues from now, a root they chain to, or your own leaf key with a backup key")
            }
            guard let next = catalog.nextIssuers(after: pin.hash, leafKeyType: held.issuer.keyFamily), !next.isEmpty else { continue }
            let names = next.map(\.name)
            guard reported.insert(names).inserted else { continue }
            let breaking = next.filter { member in !member.chain.contains { pinned.contains($0.spkiSHA256) } }
            guard !breaking.isEmpty else { continue }
            add(.issuerPoolCoverage, pattern: pattern, line: pin.line ?? line,
                "pins \(op) \(held.issuer.name)\(keys.count == 1 ? " only" : ""); \(op) issues from \(Self.range(names)): \(breaking.count) of \(next.count) renewals break this pin (no pin covers \(breaking.map(\.name).joined(separator: ", ")))",
                hint: "pin every one of \(Self.range(names)), or a root each of them chains to, or your own leaf key with a backup key")
        }
    }

    /// `R10-R14` for a run of names differing in their last number, else the names joined.
    static func range(_ names: [String]) -> String {
        guard names.count > 2, let first = names.first, let last = names.last else { return names.joined(separator: ", ") }
        let stem = { (s: String) in String(s.reversed().drop { $0.isNumber }.reversed()) }
        return stem(first) == stem(last) && !stem(first).isEmpty ? "\(first)-\(last)" : names.joined(separator: ", ")
    }
}
