import Foundation

/// The events of a certificate file of `files:`: a staged chain is not served, so it never reports a live
/// `pin_mismatch` or `probe_failed` with a port. `staged_chain_rejected` when a set starts to reject the
/// file's chain, `staged_chain_unreadable` when the file can no longer be read (docs/reference.md, Journal events).
public enum StagedChainEvents {
    /// What is remembered of one file between judgements.
    public struct Memory: Sendable, Equatable {
        /// `set/environment` of the sets that rejected the chain last time.
        var rejecting: Set<String> = []
        /// The error of the last read, when it failed.
        var unreadable: String?

        /// Nothing seen yet: the first rejection is reported.
        public init() {}
    }

    /// The events of the file judged as `r` (its target is named by the file's path) against `m` (updated).
    public static func changes(_ r: TargetResult, memory m: inout Memory) -> [JournalEntry] {
        let file = r.target.name, host = r.target.host
        let base = [("PINGUARD_FILE", file), ("PINGUARD_HOST", host)]
        guard r.facts.success else {
            let error = r.facts.error ?? "no chain"
            defer { m.unreadable = error; m.rejecting = [] }
            guard m.unreadable != error else { return [] }
            return [JournalEntry(event: .stagedChainUnreadable,
                                 message: "\(file) (staged for \(host)): cannot be judged: \(EchoedInput.bare(error, limit: 200))",
                                 fields: base + [("PINGUARD_ERROR", error)])]
        }
        m.unreadable = nil
        var out: [JournalEntry] = []
        var now: Set<String> = []
        for e in r.evaluations where e.verdict == .reject {
            let key = e.policySet + "/" + e.environment
            now.insert(key)
            guard !m.rejecting.contains(key) else { continue }
            out.append(JournalEntry(
                event: .stagedChainRejected,
                message: "\(file) (staged for \(host)): \(e.policySet) (\(e.environment)) would reject this chain once served "
                    + "(\(e.reason.rawValue)); the served chain is not affected. Do not deploy it as it is: re-issue it for a key or CA "
                    + "\(e.policySet) pins, or ship its pin first (pinguard plan --chain \(file))",
                fields: base + [("PINGUARD_POLICY_SET", e.policySet), ("PINGUARD_ENVIRONMENT", e.environment),
                                ("PINGUARD_REASON", e.reason.rawValue)]))
        }
        m.rejecting = now
        return out
    }
}
