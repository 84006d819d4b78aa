extension PinGuardMetrics {
    // From the memory of served chains (kept across restarts in the state file).

    /// Renewals observed per target.
    public static let renewalsObserved = MetricFamily(
        "pinguard_renewals_observed_total", .counter, labels: ["target"],
        help: "Renewals of the target's certificate observed (a new leaf served), kept across restarts; absent before the first.")
    /// When the last renewal was observed.
    public static let lastRenewalTimestamp = MetricFamily(
        "pinguard_last_renewal_timestamp_seconds", .gauge, labels: ["target"],
        help: "Unix time when the target's last renewal was observed.")
    /// Whether the last renewal kept the key.
    public static let lastRenewalKeyReused = MetricFamily(
        "pinguard_last_renewal_key_reused", .gauge, labels: ["target"],
        help: "1 if the target's last renewal kept the leaf key, 0 if it brought a new key.")
    /// Whether the last renewal changed the issuer.
    public static let lastRenewalIssuerChanged = MetricFamily(
        "pinguard_last_renewal_issuer_changed", .gauge, labels: ["target"],
        help: "1 if the target's last renewal was signed by an issuer with another key, else 0.")
    /// Since when the current leaf key has been served at an address, when it outlived a leaf there.
    public static let leafKeyFirstSeen = MetricFamily(
        "pinguard_leaf_key_first_seen_timestamp_seconds", .gauge, labels: ["target", "address"],
        help: "Unix time since when the address serves the leaf key it serves now: the notBefore of the first leaf seen there with it, when it was kept across a renewal; absent: the key is the current leaf's own (its notBefore says the same).")
    /// Whether the state file is written.
    public static let stateWritable = MetricFamily(
        "pinguard_state_writable", .gauge,
        help: "1 if the memory of served chains is written to its state file, 0 in memory only or while it cannot be written.")

    /// The memory's families, in exposition order (after the per-target families).
    public static let memoryFamilies: [MetricFamily] = [
        renewalsObserved, lastRenewalTimestamp, lastRenewalKeyReused, lastRenewalIssuerChanged, leafKeyFirstSeen, stateWritable,
    ]
}

extension MetricsRenderer {
    /// The memory's families, with their HELP and TYPE lines, in one buffer.
    public static func renderMemoryFamilies(_ m: ChainMemoryFacts) -> [UInt8] {
        typealias M = PinGuardMetrics
        var w = ExpositionWriter(M.renewalsObserved, capacity: 256 + m.targets.count * 400)
        // A counter at 0 says nothing its absence does not (Prometheus reads a missing counter as none yet).
        for t in m.targets where t.renewals.renewals > 0 { w.begin(); w.label(t.target); w.end(Double(t.renewals.renewals)) }
        w.start(M.lastRenewalTimestamp)
        for t in m.targets { if let at = t.renewals.lastRenewal { w.begin(); w.label(t.target); w.end(Double(at)) } }
        w.start(M.lastRenewalKeyReused)
        for t in m.targets where t.renewals.lastRenewal != nil {
            w.begin(); w.label(t.target); w.end(t.renewals.lastKeyReused ? 1 : 0)
        }
        w.start(M.lastRenewalIssuerChanged)
        for t in m.targets where t.renewals.lastRenewal != nil {
            w.begin(); w.label(t.target); w.end(t.renewals.lastIssuerChanged ? 1 : 0)
        }
        w.start(M.leafKeyFirstSeen)
        for t in m.targets { for k in t.keyFirstSeen { w.begin(); w.label(t.target); w.label(k.address); w.end(Double(k.since)) } }
        w.start(M.stateWritable)
        w.begin(); w.end(m.writable ? 1 : 0)
        return w.buffer
    }
}
