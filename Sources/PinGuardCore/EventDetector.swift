import Foundation

/// Turns successive results into journal events on state change, and once at start (docs/reference.md, Journal events).
public struct EventDetector: Sendable {
    /// Days before expiry / pin breakage that warn (`expiry_warning_days`).
    public var warningDays: Double

    struct SetMemory: Sendable {
        var reason: DecisionReason
        var backupInUse: Bool
        var reserveMissing: Bool
        var breakageSoon: Bool
    }

    struct TargetMemory: Sendable {
        var probeOK: Bool?
        var chainKey: String?
        var leafSPKI: String?
        var uncovered: Bool?
        var expirySoon: Bool?
        var clientAuth: String?
        var sets: [String: SetMemory] = [:]
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

    /// The events `result` causes given what was seen before.
    public mutating func observe(_ result: TargetResult) -> [JournalEntry] {
        let t = result.target
        let f = result.facts
        var m = memory[t.name] ?? TargetMemory()
        defer { memory[t.name] = m }
        var out: [JournalEntry] = []
        let base: [(String, String)] = [("PINGUARD_TARGET", t.name), ("PINGUARD_HOST", t.host), ("PINGUARD_PORT", String(t.port))]

        out += Self.clientAuthEvents(t, f, memory: &m.clientAuth, fields: base)
        guard f.success else {
            if m.probeOK != false {
                out.append(JournalEntry(event: .probeFailed, message: "\(t.name): probe failed: \(f.error ?? "no chain")",
                                        fields: base + [("PINGUARD_ERROR", f.error ?? "no chain")]))
            }
            m.probeOK = false
            return out
        }
        let leaf = f.servedChain.first?.spkiSHA256 ?? ""
        let withLeaf = base + [("PINGUARD_LEAF_SPKI_SHA256", leaf)]
        if m.probeOK == false {
            out.append(JournalEntry(event: .probeRecovered, message: "\(t.name): probe recovered", fields: withLeaf))
        }
        m.probeOK = true
        let chainKey = f.servedChain.map(\.certSHA256).joined(separator: ",")
        if let old = m.chainKey, old != chainKey {
            let keyChanged = m.leafSPKI != leaf
            out.append(JournalEntry(
                event: .chainChanged,
                message: "\(t.name): " + (keyChanged ? "leaf key changed from \(m.leafSPKI ?? "?") to \(leaf)" : "served chain changed (same leaf key)"),
                fields: withLeaf + [("PINGUARD_PREVIOUS_LEAF_SPKI_SHA256", m.leafSPKI ?? "")]))
        }
        m.chainKey = chainKey
        m.leafSPKI = leaf

        let chain = f.evaluatedChain
        if let earliest = chain.map(\.notAfter).min() {
            let days = earliest.timeIntervalSince(f.finishedAt) / Evaluator.secondsPerDay
            let soon = days < warningDays
            if soon && m.expirySoon != true {
                out.append(JournalEntry(event: .expiryWarning,
                                        message: "\(t.name): a chain certificate expires in \(Self.days(days)) days (\(RFC3339.format(earliest)))",
                                        fields: withLeaf + [("PINGUARD_DAYS_TO_EXPIRY", Self.days(days))]))
            }
            m.expirySoon = soon
        }

        if result.evaluations.isEmpty {
            if m.uncovered != true {
                out.append(JournalEntry(event: .policyMissing,
                                        message: "\(t.name): no loaded policy set covers \(t.host) in environment \(t.environment)",
                                        fields: withLeaf + [("PINGUARD_ENVIRONMENT", t.environment), ("PINGUARD_REASON", DecisionReason.policyMissing.rawValue)]))
            }
            m.uncovered = true
            m.sets = [:]
            return out
        }
        m.uncovered = false
        var seenSets = Set<String>()
        for e in result.evaluations {
            let key = e.policySet + "/" + e.environment
            seenSets.insert(key)
            let old = m.sets[key]
            let fields = withLeaf + Self.evaluationFields(e)
            if old?.reason != e.reason {
                out.append(JournalEntry(event: Self.event(for: e.reason), message: Self.message(t, e), fields: fields))
            }
            let backup = e.backupInUse
            if backup && old?.backupInUse != true {
                out.append(JournalEntry(event: .backupPinInUse,
                                        message: "\(t.name): \(key) matches only backup pins: a rotation happened; ship a new backup pin",
                                        fields: fields))
            }
            let reserveMissing = e.isEvaluated && e.reservePins.isEmpty && !(e.policy?.pins.isEmpty ?? true)
            if reserveMissing && old?.reserveMissing != true {
                out.append(JournalEntry(event: .reservePinMissing,
                                        message: "\(t.name): \(key) has no reserve pin: every configured pin is in the served chain, nothing to rotate to",
                                        fields: fields))
            }
            let breakage = e.reason == .pinMatch && (e.daysToPinBreakage ?? .infinity) < warningDays
            if breakage && old?.breakageSoon != true {
                out.append(JournalEntry(event: .pinBreakageImminent,
                                        message: "\(t.name): \(key) pins stop matching in \(Self.days(e.daysToPinBreakage ?? 0)) days (\(e.pinHorizon.map(RFC3339.format) ?? "?")), \(e.reservePins.count) reserve pins",
                                        fields: fields))
            }
            m.sets[key] = SetMemory(reason: e.reason, backupInUse: backup, reserveMissing: reserveMissing, breakageSoon: breakage)
        }
        m.sets = m.sets.filter { seenSets.contains($0.key) }
        return out
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

    static func message(_ t: Target, _ e: Evaluation) -> String {
        let who = "\(t.name): \(e.policySet)/\(e.environment)"
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

    static func days(_ d: Double) -> String { String(format: "%.1f", d) }
}
