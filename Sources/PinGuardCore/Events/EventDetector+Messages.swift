import Foundation

/// The detector's derived facts and texts: chain divergence, chain changes, event kinds, messages and fields.
extension EventDetector {
    /// Nodes grouped by served chain when they serve more than one: a key for change detection, a message
    /// naming every group, and the leaf of the most common chain and of the first one that differs.
    static func divergence(_ result: TargetResult) -> (key: String, message: String, fields: [(String, String)])? {
        guard result.nodes.count > 1 else { return nil }  // most targets: no chain key to build
        var groups: [(chain: String, nodes: [NodeResult])] = []
        for n in result.nodes where n.facts.success {
            let key = WorstCase.chainKey(n)
            if let i = groups.firstIndex(where: { $0.chain == key }) { groups[i].nodes.append(n) } else { groups.append((key, [n])) }
        }
        guard groups.count > 1 else { return nil }
        let ordered = groups.enumerated().sorted { a, b in
            a.element.nodes.count != b.element.nodes.count ? a.element.nodes.count > b.element.nodes.count : a.offset < b.offset
        }.map(\.element)
        func leaf(_ n: NodeResult) -> (spki: String, notAfter: String) {
            (n.facts.servedChain.first?.spkiSHA256 ?? "", n.facts.servedChain.first.map { RFC3339.format($0.notAfter) } ?? "")
        }
        let text = ordered.map { g in
            let l = leaf(g.nodes[0])
            return "\(g.nodes.map(\.address).joined(separator: ", ")) serve leaf SPKI \(l.spki) (notAfter \(l.notAfter))"
        }.joined(separator: "; ")
        let main = ordered[0].nodes[0], other = ordered[1].nodes[0]
        let (a, b) = (leaf(main), leaf(other))
        return (ordered.map(\.chain).sorted().joined(separator: "|"),
                "its \(result.nodes.count) addresses serve \(groups.count) different chains: \(text)",
                [("PINGUARD_ADDRESS", main.address), ("PINGUARD_LEAF_SPKI_SHA256", a.spki), ("PINGUARD_NOT_AFTER", a.notAfter),
                 ("PINGUARD_OTHER_ADDRESS", other.address), ("PINGUARD_OTHER_LEAF_SPKI_SHA256", b.spki),
                 ("PINGUARD_OTHER_NOT_AFTER", b.notAfter), ("PINGUARD_DISTINCT_CHAINS", String(groups.count))])
    }

    /// Whether the served chain's key, its certificate hashes joined by ",", differs from the last one's;
    /// equal hashes (the usual case) need no joined string.
    static func chainChanged(from old: [ChainCertificate], to new: [ChainCertificate]) -> Bool {
        if old.elementsEqual(new, by: { $0.certSHA256 == $1.certSHA256 }) { return false }
        return old.map(\.certSHA256).joined(separator: ",") != new.map(\.certSHA256).joined(separator: ",")
    }

    /// The event that reports `reason` (every reason has one: `JournalEventDeclarationTests`).
    static func event(for reason: DecisionReason) -> JournalEvent { JournalEvent.reporting[reason] ?? .policyMissing }

    static func message(_ subject: String, _ t: Target, _ e: Evaluation) -> String {
        let who = "\(subject): \(e.policySet)/\(e.environment)"
        let verdict = e.verdict == .accept ? "accepts" : (e.verdict == .reject ? "REJECTS" : "has no verdict")
        let why: String
        switch e.reason {
        case .pinMatch: why = "\(e.matchedPins.count) pin(s) match"
        case .pinMismatch: why = "no configured pin matches the chain"
        case .pinMismatchAllowedByFallback: why = "no pin matches, accepted through system-trust fallback"
        case .pinMismatchPermissive: why = "no pin matches, accepted because the policy is permissive"
        case .systemTrustFailed: why = "the chain fails system trust"
        case .systemTrustFailedPermissive: why = "the chain fails system trust, accepted because the policy is permissive"
        case .pinSetEmpty: why = "the host policy has no pins"
        case .pinSetExpired: why = "the pin set expired, pins are not enforced"
        case .policyMissing: why = "the set has no policy for \(t.host), default handling applies"
        case .probeFailed: why = "the probe failed"
        case .ctNotCompliant: why = "the chain fails the client's CT policy: \(e.ct?.reason ?? "no judgement")"
        }
        return "\(who) \(verdict): \(why) (\(e.reason.rawValue))"
    }

    static func evaluationFields(_ e: Evaluation) -> [(String, String)] {
        var f: [(String, String)] = [("PINGUARD_POLICY_SET", e.policySet), ("PINGUARD_ENVIRONMENT", e.environment),
                                     ("PINGUARD_REASON", e.reason.rawValue), ("PINGUARD_VERDICT", e.verdict.rawValue),
                                     ("PINGUARD_MATCHED_PINS", e.matchedPins.map { $0.pin.label }.joined(separator: ",")),
                                     ("PINGUARD_RESERVE_PINS", String(e.reservePins.count))]
        if let ct = e.ct, !ct.compliant { f.append(("PINGUARD_CT_REASON", ct.reason)) }
        if let d = e.daysToExpiry { f.append(("PINGUARD_DAYS_TO_EXPIRY", days(d))) }
        if let d = e.daysToPinBreakage { f.append(("PINGUARD_DAYS_TO_PIN_BREAKAGE", days(d))) }
        return f
    }

    /// `d` as `%.1f` formats it. A reload may write an event with two of these for each of 100,000 targets:
    /// when the tenths are not a near tie they are rounded here (the same digits, without C's formatter, a
    /// tenth of the time); a near tie, a huge or a non-finite value goes through C's formatter, which rounds
    /// the exact binary value.
    static func days(_ d: Double) -> String {
        let tenths = d * 10
        if d.isFinite, abs(tenths) < 1e15, abs(abs(tenths - tenths.rounded(.towardZero)) - 0.5) > 1e-6 {
            let n = abs(Int(tenths.rounded()))
            return (d.sign == .minus ? "-" : "") + String(n / 10) + "." + String(n % 10)
        }
        return formatted(d)
    }

    /// `d` through C's `%.1f` (Foundation's `String(format:)` takes microseconds a call).
    static func formatted(_ d: Double) -> String {
        withVaList([d]) { args in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer -> String in
                let n = vsnprintf(buffer.baseAddress!, buffer.count, "%.1f", args)
                guard n >= 0 && Int(n) < buffer.count else { return String(format: "%.1f", d) }
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(n)), as: UTF8.self)
            }
        }
    }
}
