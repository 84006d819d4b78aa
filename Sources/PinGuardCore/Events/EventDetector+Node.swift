import Foundation

/// The events of one address of a target: its probe, its served chain, the chain's expiry and the policy sets.
extension EventDetector {
    /// `probe_failed` once when the probe of the address stops giving a chain.
    static func reportProbeFailure(_ f: ProbeFacts, who: String, base: EventFields, memory m: inout NodeMemory,
                                   into out: inout [JournalEntry]) {
        if m.probeOK != false {
            out.append(JournalEntry(event: .probeFailed, message: "\(who): probe failed: \(f.error ?? "no chain")",
                                    fields: base + [("PINGUARD_ERROR", f.error ?? "no chain")]))
        }
        m.probeOK = false
    }

    /// `probe_recovered` when a chain comes back after a failed probe.
    static func reportProbeRecovery(who: String, fields: EventFields, memory m: inout NodeMemory,
                                    into out: inout [JournalEntry]) {
        if m.probeOK == false {
            out.append(JournalEntry(event: .probeRecovered, message: "\(who): probe recovered", fields: fields.list))
        }
        m.probeOK = true
    }

    /// `chain_changed` when the served certificates differ from the last chain seen, naming a new leaf key.
    static func reportChainChange(_ f: ProbeFacts, who: String, fields: EventFields, memory m: inout NodeMemory,
                                  into out: inout [JournalEntry]) {
        defer { m.chain = f.servedChain }
        guard let old = m.chain, Self.chainChanged(from: old, to: f.servedChain) else { return }
        let leaf = f.servedChain.first?.spkiSHA256 ?? ""
        let keyChanged = m.leafSPKI != leaf
        out.append(JournalEntry(
            event: .chainChanged,
            message: "\(who): " + (keyChanged ? "leaf key changed from \(m.leafSPKI ?? "?") to \(leaf)" : "served chain changed (same leaf key)"),
            fields: fields + [("PINGUARD_PREVIOUS_LEAF_SPKI_SHA256", m.leafSPKI ?? "")]))
    }

    /// Days before expiry or pin breakage that warn for the chain of `f`: `expiry_warning_days`, but never more
    /// than a quarter of the leaf's lifetime, so a short-lived certificate renewed on schedule stays quiet.
    func warningWindow(_ f: ProbeFacts) -> Double {
        guard let leaf = f.evaluatedChain.first else { return warningDays }
        return min(warningDays, max(leaf.notAfter.timeIntervalSince(leaf.notBefore), 0) / Evaluator.secondsPerDay / 4)
    }

    /// `expiry_warning` once when the chain's earliest expiry comes within `warningWindow(_:)`.
    func reportExpiry(_ f: ProbeFacts, who: String, fields: EventFields, memory m: inout NodeMemory,
                      into out: inout [JournalEntry]) {
        guard let earliest = f.evaluatedChain.map(\.notAfter).min() else { return }
        let days = earliest.timeIntervalSince(f.finishedAt) / Evaluator.secondsPerDay
        let soon = days < warningWindow(f)
        if soon && m.expirySoon != true {
            out.append(JournalEntry(event: .expiryWarning,
                                    message: "\(who): a chain certificate expires in \(Self.days(days)) days (\(RFC3339.format(earliest)))",
                                    fields: fields + [("PINGUARD_DAYS_TO_EXPIRY", Self.days(days))]))
        }
        m.expirySoon = soon
    }

    /// `policy_missing` when no set covers the address, else each set's rules against what it said before;
    /// the memory of sets no longer evaluated goes.
    func reportSets(_ node: NodeResult, of t: Target, who: String, fields: EventFields, memory m: inout NodeMemory,
                    into out: inout [JournalEntry]) {
        guard !node.evaluations.isEmpty else {
            Self.reportNoPolicy(t, who: who, fields: fields, memory: &m, into: &out)
            return
        }
        m.uncovered = false
        let warningDays = warningWindow(node.facts)
        // By index, each decision read in place: iterating would copy every one (each field retained and released).
        for k in node.evaluations.indices {
            let found = m.set(node.evaluations[k].policySet, node.evaluations[k].environment, hint: k)
            let now = SetMemory(node.evaluations[k], warningDays: warningDays)
            Self.reportSetChanges(node.evaluations[k], of: t, who: who, now: now, old: found.map { m.sets[$0] }, fields: fields, into: &out)
            if let found { m.sets[found] = now } else { m.sets.append(now) }
        }
        // Forgetting is rare (a set went away): nothing is rebuilt otherwise.
        if m.sets.count != node.evaluations.count {
            m.sets.removeAll { s in !node.evaluations.contains { s.isFor($0.policySet, $0.environment) } }
        }
    }

    /// `policy_missing` once when no loaded set covers the target's host in its environment.
    static func reportNoPolicy(_ t: Target, who: String, fields: EventFields, memory m: inout NodeMemory,
                               into out: inout [JournalEntry]) {
        if m.uncovered != true {
            out.append(JournalEntry(event: .policyMissing,
                                    message: "\(who): no loaded policy set covers \(t.host) in environment \(t.environment)",
                                    fields: fields + [("PINGUARD_ENVIRONMENT", t.environment), ("PINGUARD_REASON", DecisionReason.policyMissing.rawValue)]))
        }
        m.uncovered = true
        m.sets = []
    }
}
