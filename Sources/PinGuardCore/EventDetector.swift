import Foundation

/// Turns successive results into journal events on state change, and once at start (docs/reference.md, Journal events).
public struct EventDetector: Sendable {
    /// Days before expiry / pin breakage that warn (`expiry_warning_days`).
    public var warningDays: Double

    var memory: [String: TargetMemory] = [:]

    /// Creates a detector with no memory: the first observation of each state is reported.
    public init(warningDays: Int) { self.warningDays = Double(warningDays) }

    /// Forgets one target, so that its next observation is reported as at start.
    public mutating func forget(target name: String) {
        memory[name] = nil
    }

    /// Drops memory of targets no longer configured.
    public mutating func retain(targets names: Set<String>) {
        memory = memory.filter { names.contains($0.key) }
    }

    /// The events `result` causes given what was seen before: the target's resolution, address set and chain
    /// divergence, then each address on its own (every event of an address carries `PINGUARD_ADDRESS`).
    public mutating func observe(_ result: TargetResult) -> [JournalEntry] {
        var m = memory(of: result.target.name)
        defer { remember(m, of: result.target.name) }
        return observe(result, memory: &m)
    }

    /// What the detector remembers of target `name` (nothing for a target not seen yet).
    public func memory(of name: String) -> TargetMemory { memory[name] ?? TargetMemory() }

    /// Keeps `m` as what was last seen of target `name`.
    public mutating func remember(_ m: TargetMemory, of name: String) { memory[name] = m }

    /// `observe(_:)` of one target against its memory `m` (updated), touching nothing else of the detector:
    /// many targets can be observed at once, each with its own memory (a reload observes all of them).
    public func observe(_ result: TargetResult, memory m: inout TargetMemory) -> [JournalEntry] {
        let t = result.target
        var out: [JournalEntry] = []
        let base: [(String, String)] = [("PINGUARD_TARGET", t.name), ("PINGUARD_HOST", t.host), ("PINGUARD_PORT", String(t.port))]
        let resolution = result.resolution

        if let error = resolution.error {
            if m.addresses != [] {
                out.append(JournalEntry(event: .resolutionFailed, message: "\(t.name): no address to probe: \(error)",
                                        fields: base + [("PINGUARD_ERROR", error),
                                                        ("PINGUARD_PREVIOUS_ADDRESSES", (m.addresses ?? []).joined(separator: ","))]))
            }
            m.addresses = []
            return out
        }
        let now = resolution.addresses
        if let old = m.addresses, old != now {
            let added = now.filter { !old.contains($0) }, removed = old.filter { !now.contains($0) }
            var what: [String] = []
            if old.isEmpty { what.append("resolves again") }
            if !added.isEmpty { what.append("added \(added.joined(separator: ", "))") }
            if !removed.isEmpty { what.append("removed \(removed.joined(separator: ", "))") }
            if added.isEmpty && removed.isEmpty { what.append("order changed") }
            out.append(JournalEntry(event: .addressSetChanged,
                                    message: "\(t.name): address set changed: \(what.joined(separator: "; ")) (now \(now.count))",
                                    fields: base + [("PINGUARD_ADDRESSES", now.joined(separator: ",")),
                                                    ("PINGUARD_PREVIOUS_ADDRESSES", old.joined(separator: ","))]))
        }
        m.addresses = now
        let overLimit = resolution.skipped > 0
        if overLimit && m.overLimit != true {
            out.append(JournalEntry(event: .addressesOverLimit,
                                    message: "\(t.name): \(t.host) has \(now.count) addresses; \(t.maxAddresses) probed (max_addresses), \(resolution.skipped) not",
                                    fields: base + [("PINGUARD_ADDRESS_COUNT", String(now.count)),
                                                    ("PINGUARD_MAX_ADDRESSES", String(t.maxAddresses))]))
        }
        m.overLimit = overLimit
        if let divergence = Self.divergence(result) {
            if m.divergence != divergence.key {
                out.append(JournalEntry(event: .chainDivergence, message: "\(t.name): \(divergence.message)",
                                        fields: base + divergence.fields))
            }
            m.divergence = divergence.key
        } else {
            m.divergence = nil
        }

        for (k, node) in result.nodes.enumerated() {
            let address = node.address
            let i = m.node(address, hint: k)
            out += observe(node, of: t, base: base + [("PINGUARD_ADDRESS", address)],
                           who: result.nodes.count > 1 ? "\(t.name) (\(address))" : t.name, memory: &m.nodes[i])
        }
        // Forgetting is rare (an address went away): nothing is rebuilt otherwise.
        if m.nodes.count != result.nodes.count {
            m.nodes.removeAll { n in !result.nodes.contains { $0.address == n.address } }
        }
        return out
    }

    /// The events of one address: probe failure and recovery, chain change, expiry and each policy set's decision.
    func observe(_ node: NodeResult, of t: Target, base: [(String, String)], who: String,
                          memory m: inout NodeMemory) -> [JournalEntry] {
        let f = node.facts
        var out = Self.clientAuthEvents(t, f, who: who, memory: &m.clientAuth, fields: base)
        guard f.success else {
            if m.probeOK != false {
                out.append(JournalEntry(event: .probeFailed, message: "\(who): probe failed: \(f.error ?? "no chain")",
                                        fields: base + [("PINGUARD_ERROR", f.error ?? "no chain")]))
            }
            m.probeOK = false
            return out
        }
        let leaf = f.servedChain.first?.spkiSHA256 ?? ""
        let withLeaf = base + [("PINGUARD_LEAF_SPKI_SHA256", leaf)]
        if m.probeOK == false {
            out.append(JournalEntry(event: .probeRecovered, message: "\(who): probe recovered", fields: withLeaf))
        }
        m.probeOK = true
        if let old = m.chain, Self.chainChanged(from: old, to: f.servedChain) {
            let keyChanged = m.leafSPKI != leaf
            out.append(JournalEntry(
                event: .chainChanged,
                message: "\(who): " + (keyChanged ? "leaf key changed from \(m.leafSPKI ?? "?") to \(leaf)" : "served chain changed (same leaf key)"),
                fields: withLeaf + [("PINGUARD_PREVIOUS_LEAF_SPKI_SHA256", m.leafSPKI ?? "")]))
        }
        m.chain = f.servedChain

        let chain = f.evaluatedChain
        if let earliest = chain.map(\.notAfter).min() {
            let days = earliest.timeIntervalSince(f.finishedAt) / Evaluator.secondsPerDay
            let soon = days < warningDays
            if soon && m.expirySoon != true {
                out.append(JournalEntry(event: .expiryWarning,
                                        message: "\(who): a chain certificate expires in \(Self.days(days)) days (\(RFC3339.format(earliest)))",
                                        fields: withLeaf + [("PINGUARD_DAYS_TO_EXPIRY", Self.days(days))]))
            }
            m.expirySoon = soon
        }

        if node.evaluations.isEmpty {
            if m.uncovered != true {
                out.append(JournalEntry(event: .policyMissing,
                                        message: "\(who): no loaded policy set covers \(t.host) in environment \(t.environment)",
                                        fields: withLeaf + [("PINGUARD_ENVIRONMENT", t.environment), ("PINGUARD_REASON", DecisionReason.policyMissing.rawValue)]))
            }
            m.uncovered = true
            m.sets = []
            return out
        }
        m.uncovered = false
        for (k, e) in node.evaluations.enumerated() {
            var key: String { e.policySet + "/" + e.environment }  // for messages only: built for an event
            let found = m.set(e.policySet, e.environment, hint: k)
            let old = found.map { m.sets[$0] }
            // The journal fields are built only for an event: a reload observes every result again, and
            // almost none of them changed.
            var built: [(String, String)]?
            func fields() -> [(String, String)] {
                if let built { return built }
                let f = withLeaf + Self.evaluationFields(e)
                built = f
                return f
            }
            if old?.reason != e.reason {
                out.append(JournalEntry(event: Self.event(for: e.reason), message: Self.message(who, t, e), fields: fields()))
            }
            let backup = e.backupInUse
            if backup && old?.backupInUse != true {
                out.append(JournalEntry(event: .backupPinInUse,
                                        message: "\(who): \(key) matches only backup pins: a rotation happened; ship a new backup pin",
                                        fields: fields()))
            }
            let reserveMissing = e.isEvaluated && e.reservePins.isEmpty && !(e.policy?.pins.isEmpty ?? true)
            if reserveMissing && old?.reserveMissing != true {
                out.append(JournalEntry(event: .reservePinMissing,
                                        message: "\(who): \(key) has no reserve pin: every configured pin is in the served chain, nothing to rotate to",
                                        fields: fields()))
            }
            let breakage = e.reason == .pinMatch && (e.daysToPinBreakage ?? .infinity) < warningDays
            if breakage && old?.breakageSoon != true {
                out.append(JournalEntry(event: .pinBreakageImminent,
                                        message: "\(who): \(key) pins stop matching in \(Self.days(e.daysToPinBreakage ?? 0)) days (\(e.pinHorizon.map(RFC3339.format) ?? "?")), \(e.reservePins.count) reserve pins",
                                        fields: fields()))
            }
            let rawKeys = e.rawKeyPins.map(\.pin.hash)
            for r in e.rawKeyPins where !(old?.rawKeyPins.contains(r.pin.hash) ?? false) {
                out.append(JournalEntry(event: .rawKeyPin, message: "\(who): \(key): \(r.message)",
                                        fields: fields() + [("PINGUARD_PIN", r.pin.hash), ("PINGUARD_DEPTH", String(r.depth)),
                                                          ("PINGUARD_SPKI_SHA256", r.spkiSHA256)]))
            }
            let now = SetMemory(policySet: e.policySet, environment: e.environment, reason: e.reason, backupInUse: backup,
                                reserveMissing: reserveMissing, breakageSoon: breakage, rawKeyPins: rawKeys)
            if let found { m.sets[found] = now } else { m.sets.append(now) }
        }
        // Forgetting is rare (a set went away): nothing is rebuilt otherwise.
        if m.sets.count != node.evaluations.count {
            m.sets.removeAll { s in !node.evaluations.contains { s.isFor($0.policySet, $0.environment) } }
        }
        return out
    }

}
