import Foundation

extension TargetSeries {
    /// The families of a target's addresses and of each policy set's judgement, in exposition order.
    static let judgement: [TargetSeries] = [
        TargetSeries(M.targetInfo, bytesPerTarget: 8) { r, _, w in
            guard !r.target.labels.isEmpty else { return }
            w.begin(); w.label(r.target.name)
            for (k, v) in r.target.labels.sorted(by: { $0.key < $1.key }) { w.extraLabel(k, v) }
            w.end(1)
        },
        // One address is what a target's `probe_success` series already say; written for none and for several.
        .perTarget(M.targetAddresses, bytesPerTarget: 32) { r in
            let probed = r.nodes.count { $0.facts.address != nil }
            return probed == 1 ? nil : Double(probed)
        },
        .perTarget(M.targetAddressesSkipped, bytesPerTarget: 32) { r in
            r.resolution.skipped > 0 || r.hasSeveralAddresses ? Double(r.resolution.skipped) : nil
        },
        .perTarget(M.targetDistinctChains, bytesPerTarget: 32) { r in
            r.hasSeveralAddresses ? Double(WorstCase.distinctChains(r.nodes)) : nil
        },
        TargetSeries(M.addressPolicyAccept, bytesPerTarget: 64) { r, _, w in
            guard r.hasSeveralAddresses else { return }
            for n in r.nodes {
                for e in n.evaluations where e.verdict != .none {
                    w.begin(); w.label(r.target.name); w.label(n.address); w.label(e.policySet); w.label(e.environment)
                    w.end(e.verdict == .accept ? 1 : 0)
                }
            }
        },
        TargetSeries(M.policyAccept, bytesPerTarget: 320) { r, _, w in
            for e in r.evaluations where e.verdict != .none {
                w.begin(); w.label(r.target.name); w.label(e.policySet); w.label(e.environment); w.end(e.verdict == .accept ? 1 : 0)
            }
        },
        TargetSeries(M.policyDecisionInfo, bytesPerTarget: 400) { r, _, w in
            for e in r.evaluations {
                w.begin(); w.label(r.target.name); w.label(e.policySet); w.label(e.environment); w.label(e.reason.rawValue); w.end(1)
            }
        },
        TargetSeries(M.pinMatched, bytesPerTarget: 1200) { r, _, w in
            guard r.nodes.contains(where: \.facts.success) else { return }
            for e in r.evaluations { writePins(of: e, target: r.target.name, into: &w) }
        },
        .perSet(M.pinHorizon, bytesPerTarget: 384) { _, e in e.pinHorizon?.timeIntervalSince1970 },
        .perSet(M.reservePins, bytesPerTarget: 256) { _, e in e.isEvaluated ? Double(e.reservePins.count) : nil },
        .perSet(M.pinSetExpiry, bytesPerTarget: 16) { _, e in e.policy?.expires?.timeIntervalSince1970 },
    ]

    /// `pinguard_pin_matched` for every configured pin of `e`'s policy; pins differing only in `group` would
    /// give the same series, so the first of them is written.
    private static func writePins(of e: Evaluation, target: String, into w: inout ExpositionWriter) {
        guard let pins = e.policy?.pins else { return }
        for (i, p) in pins.enumerated() {
            if pins[..<i].contains(where: { $0.hash == p.hash && $0.role == p.role && $0.type == p.type && $0.scope == p.scope }) {
                continue
            }
            w.begin(); w.label(target); w.label(e.policySet); w.label(p.hash)
            w.label(p.role.rawValue); w.label(p.type.rawValue); w.label(p.scope.rawValue)
            w.end(e.matchedPins.contains { $0.pin == p } ? 1 : 0)
        }
    }
}
