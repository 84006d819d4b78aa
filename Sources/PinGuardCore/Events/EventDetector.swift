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
        let base = EventFields(t)
        var out: [JournalEntry] = []
        if let error = result.resolution.error {
            Self.reportResolutionFailure(t, error, base: base, memory: &m, into: &out)
            return out
        }
        Self.reportAddressSetChange(t, result.resolution.addresses, base: base, memory: &m, into: &out)
        Self.reportAddressesOverLimit(t, result.resolution, base: base, memory: &m, into: &out)
        Self.reportChainDivergence(result, base: base, memory: &m, into: &out)
        reportNodes(result, base: base, memory: &m, into: &out)
        return out
    }

    /// The events of one address: probe failure and recovery, chain change, expiry and each policy set's decision.
    func observe(_ node: NodeResult, of t: Target, base: EventFields, who: String,
                 memory m: inout NodeMemory) -> [JournalEntry] {
        let f = node.facts
        var out = Self.clientAuthEvents(t, f, who: who, memory: &m.clientAuth, fields: base)
        guard f.success else {
            Self.reportProbeFailure(f, who: who, base: base, memory: &m, into: &out)
            return out
        }
        let withLeaf = base.serving(f.servedChain.first?.spkiSHA256 ?? "")
        Self.reportProbeRecovery(who: who, fields: withLeaf, memory: &m, into: &out)
        Self.reportChainChange(f, who: who, fields: withLeaf, memory: &m, into: &out)
        reportExpiry(f, who: who, fields: withLeaf, memory: &m, into: &out)
        reportSets(node, of: t, who: who, fields: withLeaf, memory: &m, into: &out)
        Self.reportRevocation(node, who: who, fields: base, memory: &m, into: &out)
        return out
    }
}
