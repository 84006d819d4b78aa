import Foundation

extension EventDetector {
    /// A state of one policy set's evaluation that the journal reports once, when it starts to hold.
    struct SetRule: Sendable {
        /// Whether the state starts with this observation (`old` is nil for a set not seen before).
        var starts: @Sendable (_ now: SetMemory, _ old: SetMemory?) -> Bool
        var event: @Sendable (Evaluation) -> JournalEvent
        var message: @Sendable (_ who: String, _ target: Target, _ e: Evaluation) -> String
    }

    /// The rules, in the order their events are written for one observation.
    static let setRules: [SetRule] = [
        SetRule(starts: { now, old in now.reason != old?.reason }, event: { Self.event(for: $0.reason) }, message: Self.message),
        SetRule(starts: { now, old in now.backupInUse && old?.backupInUse != true }, event: { _ in .backupPinInUse },
                message: { who, _, e in "\(who): \(key(e)) matches only backup pins: a rotation happened; ship a new backup pin" }),
        SetRule(starts: { now, old in now.reserveMissing && old?.reserveMissing != true }, event: { _ in .reservePinMissing },
                message: { who, _, e in
                    "\(who): \(key(e)) has no reserve pin: every configured pin is in the served chain, nothing to rotate to"
                }),
        SetRule(starts: { now, old in now.breakageSoon && old?.breakageSoon != true }, event: { _ in .pinBreakageImminent },
                message: { who, _, e in
                    "\(who): \(key(e)) pins stop matching in \(days(e.daysToPinBreakage ?? 0)) days (\(e.pinHorizon.map(RFC3339.format) ?? "?")), \(e.reservePins.count) reserve pins"
                }),
    ]

    /// The events of evaluation `e` given the set's memory before (`old`) and after (`now`): each rule
    /// that starts to hold, then each raw-key pin not reported before.
    static func reportSetChanges(_ e: Evaluation, of t: Target, who: String, now: SetMemory, old: SetMemory?,
                                 fields withLeaf: EventFields, into out: inout [JournalEntry]) {
        // The journal fields are built only for an event: a reload observes every result again, and
        // almost none of them changed.
        var built: [(String, String)]?
        func fields() -> [(String, String)] {
            if let built { return built }
            let f = withLeaf + Self.evaluationFields(e)
            built = f
            return f
        }
        for rule in setRules where rule.starts(now, old) {
            out.append(JournalEntry(event: rule.event(e), message: rule.message(who, t, e), fields: fields()))
        }
        for r in e.rawKeyPins where !(old?.rawKeyPins.contains(r.pin.hash) ?? false) {
            out.append(JournalEntry(event: .rawKeyPin, message: "\(who): \(key(e)): \(r.message)",
                                    fields: fields() + [("PINGUARD_PIN", r.pin.hash), ("PINGUARD_DEPTH", String(r.depth)),
                                                        ("PINGUARD_SPKI_SHA256", r.spkiSHA256)]))
        }
        for h in now.hazards where !(old?.hazards.contains(h) ?? false) {
            out.append(JournalEntry(event: .servedChainHazard, message: "\(who): \(key(e)): \(h)",
                                    fields: fields() + [("PINGUARD_HAZARD", h)]))
        }
    }

    /// `set/environment`, as the messages name an evaluation.
    static func key(_ e: Evaluation) -> String { e.policySet + "/" + e.environment }
}

extension EventDetector.SetMemory {
    /// What the rules remember of evaluation `e`: its reason and the states that are reported as they start.
    init(_ e: Evaluation, warningDays: Double) {
        self.init(policySet: e.policySet, environment: e.environment, reason: e.reason, backupInUse: e.backupInUse,
                  reserveMissing: e.isEvaluated && e.reservePins.isEmpty && !(e.policy?.pins.isEmpty ?? true),
                  breakageSoon: e.reason == .pinMatch && (e.daysToPinBreakage ?? .infinity) < warningDays,
                  rawKeyPins: e.rawKeyPins.map(\.pin.hash), hazards: Array(Set(e.paths.flatMap(\.hazards))).sorted())
    }
}
