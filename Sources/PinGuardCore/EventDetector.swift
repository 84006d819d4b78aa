import Foundation

/// Turns successive results into journal events on state change, and once at start (docs/reference.md, Journal events).
public struct EventDetector: Sendable {
    /// Days before expiry / pin breakage that warn (`expiry_warning_days`).
    public var warningDays: Double

    /// What was last seen of one policy set's evaluation of an address, found by set and environment.
    struct SetMemory: Sendable {
        var policySet: String
        var environment: String
        var reason: DecisionReason
        var backupInUse: Bool
        var reserveMissing: Bool
        var breakageSoon: Bool
        var rawKeyPins: [String] = []

        /// Whether this is the memory of `policySet`/`environment`: the same key `set/environment` as
        /// journal messages spell it. Names without a "/" spell the same key only when both are equal;
        /// names with one (rare) are compared as the whole key, which two different pairs can share.
        func isFor(_ set: String, _ env: String) -> Bool {
            if policySet == set && environment == env { return true }
            func slash(_ s: String) -> Bool { s.utf8.contains(UInt8(ascii: "/")) }
            guard slash(policySet) || slash(environment) || slash(set) || slash(env) else { return false }
            return policySet + "/" + environment == set + "/" + env
        }
    }

    /// What was last seen of one address of a target.
    ///
    /// A 100,000-target service keeps one of these per address, so it holds little of its own: the served
    /// chain is the result's own array (shared, not a joined key string), and the sets are a small array
    /// searched in order (a target has a handful of sets, so no dictionary per address).
    struct NodeMemory: Sendable {
        var address: String
        var probeOK: Bool?
        /// The served chain last seen of a successful probe (its certificate hashes are the chain's key,
        /// its leaf SPKI the leaf key).
        var chain: [ChainCertificate]?
        var uncovered: Bool?
        var expirySoon: Bool?
        var clientAuth: String?
        var sets: [SetMemory] = []

        init(address: String) { self.address = address }

        /// The leaf SPKI of the last served chain, as reported: "" for an empty chain, nil before any.
        var leafSPKI: String? { chain.map { $0.first?.spkiSHA256 ?? "" } }

        /// The index in `sets` of the memory of `set`/`env`, nil when new. Evaluations come in the same
        /// order each time, so position `hint` is tried first.
        func set(_ set: String, _ env: String, hint: Int) -> Int? {
            if hint < sets.count && sets[hint].isFor(set, env) { return hint }
            return sets.firstIndex { $0.isFor(set, env) }
        }
    }

    /// What was last seen of one target: its addresses and each address's state.
    public struct TargetMemory: Sendable {
        /// Resolved addresses; empty after a failed resolution, nil before the first observation.
        var addresses: [String]?
        var overLimit: Bool?
        var divergence: String?
        /// One entry per address of the last result, in its order (an array: usually one address, at most
        /// `max_addresses`, searched in order).
        var nodes: [NodeMemory] = []

        /// Nothing seen yet.
        public init() {}

        /// The index in `nodes` of the memory of `address`, added when new. Addresses usually come in the
        /// same order each time, so position `hint` is tried first and a search (linear, over at most
        /// `max_addresses` entries) is the exception.
        mutating func node(_ address: String, hint: Int) -> Int {
            if hint < nodes.count && nodes[hint].address == address { return hint }
            if let i = nodes.firstIndex(where: { $0.address == address }) { return i }
            nodes.append(NodeMemory(address: address))
            return nodes.count - 1
        }
    }

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

    /// Whether the served chain's key, its certificate hashes joined by ",", differs from the last one's;
    /// equal hashes (the usual case) need no joined string.
    static func chainChanged(from old: [ChainCertificate], to new: [ChainCertificate]) -> Bool {
        if old.elementsEqual(new, by: { $0.certSHA256 == $1.certSHA256 }) { return false }
        return old.map(\.certSHA256).joined(separator: ",") != new.map(\.certSHA256).joined(separator: ",")
    }

    static func event(for reason: DecisionReason) -> JournalEvent {
        switch reason {
        case .pinMatch: return .pinMatched
        case .policyMissing: return .policyMissing
        case .systemTrustFailed: return .systemTrustFailed
        case .systemTrustFailedPermissive: return .systemTrustFailedPermissive
        case .pinMismatch: return .pinMismatch
        case .pinMismatchAllowedByFallback: return .pinMismatchAllowedByFallback
        case .pinMismatchPermissive: return .pinMismatchPermissive
        case .pinSetEmpty: return .pinSetEmpty
        case .pinSetExpired: return .pinSetExpired
        case .probeFailed: return .probeFailed
        }
    }

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
        }
        return "\(who) \(verdict): \(why) (\(e.reason.rawValue))"
    }

    static func evaluationFields(_ e: Evaluation) -> [(String, String)] {
        var f: [(String, String)] = [("PINGUARD_POLICY_SET", e.policySet), ("PINGUARD_ENVIRONMENT", e.environment),
                                     ("PINGUARD_REASON", e.reason.rawValue), ("PINGUARD_VERDICT", e.verdict.rawValue),
                                     ("PINGUARD_MATCHED_PINS", e.matchedPins.map { $0.pin.label }.joined(separator: ",")),
                                     ("PINGUARD_RESERVE_PINS", String(e.reservePins.count))]
        if let d = e.daysToExpiry { f.append(("PINGUARD_DAYS_TO_EXPIRY", days(d))) }
        if let d = e.daysToPinBreakage { f.append(("PINGUARD_DAYS_TO_PIN_BREAKAGE", days(d))) }
        return f
    }

    /// `d` as `%.1f` formats it, through C's formatter: Foundation's `String(format:)` takes microseconds a
    /// call, and a reload may write an event with two of these for each of 100,000 targets.
    static func days(_ d: Double) -> String {
        withVaList([d]) { args in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer -> String in
                let n = vsnprintf(buffer.baseAddress!, buffer.count, "%.1f", args)
                guard n >= 0 && Int(n) < buffer.count else { return String(format: "%.1f", d) }
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(n)), as: UTF8.self)
            }
        }
    }
}
