import Foundation

/// The decisions and forecasts one pass of judging has made, for the next result that asks for the same
/// one: many targets of a fleet serve one chain (a wildcard certificate, a CDN's), and a reload that judges
/// them all again under an edited set would otherwise make the same decision and the same forecast for each.
///
/// A decision of a set (`ClientPathEvaluator.evaluate`) reads, of the target, its environment, whether it
/// names its sets, and of the probe the served and verified chains, trust, whether it succeeded, the CT
/// observation and the clients' paths; the host only through the policy the set selects for it. A set's
/// forecast (`RenewalForecaster`) reads those and the result's outlook. An entry is taken only when all of
/// these are equal to the ones it was made from (`ProbeFacts.judgedAlike`), so a result judged from the memo
/// is the result judged without it. One memo serves one `Judge` at one `now` (its sets' names are unique, as
/// the configuration loader enforces), on one thread: each worker of a reload has its own.
public final class JudgementMemo {
    /// What an entry is found by; the entry is then compared in full.
    struct Key: Hashable {
        var set: String
        var environment: String
        var named: Bool
        var pattern: String?
        var leaf: String
        var forecast: Bool
    }

    /// One decision or forecast and what it was made from; `next`: the next entry of the same key.
    struct Entry {
        var facts: ProbeFacts
        var policy: HostPolicy?
        var outlook: RenewalOutlook?
        var evaluation: Evaluation?
        var forecast: SetForecast?
        var next: Int?
    }

    /// The entries, and the first entry of each key (the others follow through `Entry.next`): entries are
    /// compared where they are, never copied out, as a copy of the facts would retain each of their fields.
    private var slots: [Entry] = []
    private var first: [Key: Int] = [:]
    /// The entry the last lookup found.
    private var lastFound: Int?
    /// At most this many entries are kept; when full, the memo starts again empty (a fleet of as many chains
    /// as targets gains nothing from it, and it must not grow with the fleet).
    let capacity: Int
    /// Decisions and forecasts made (not found in the memo).
    public private(set) var made = 0
    /// Decisions and forecasts taken from the memo.
    public private(set) var reused = 0

    /// An empty memo holding at most `capacity` decisions and forecasts.
    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// What a decision or a forecast is made from, besides the facts (and `now` and the sets, the memo's own).
    struct Inputs {
        var set: String
        var environment: String
        var named: Bool
        var selected: Evaluator.Selection
        var outlook: RenewalOutlook?

        /// The key of an entry made from these inputs and `facts`.
        func key(_ facts: ProbeFacts) -> Key {
            Key(set: set, environment: environment, named: named, pattern: selected?.pattern,
                leaf: facts.servedChain.first?.certSHA256 ?? "", forecast: outlook != nil)
        }
    }

    /// The decision made from `inputs` (`outlook` nil) and `facts`, when one was: `.some(nil)` when that
    /// decision was none. No closure makes a missing one: a closure would hold a copy of the facts.
    func decision(_ facts: ProbeFacts, _ inputs: Inputs) -> Evaluation?? {
        reuse(facts, inputs).map { slots[$0].evaluation }
    }

    /// The forecast made from `inputs` (with their `outlook`) and `facts`, likewise.
    func forecast(_ facts: ProbeFacts, _ inputs: Inputs) -> SetForecast?? {
        reuse(facts, inputs).map { slots[$0].forecast }
    }

    /// The entry made from `inputs` and `facts`, counted as reused.
    private func reuse(_ facts: ProbeFacts, _ inputs: Inputs) -> Int? {
        guard let k = find(inputs.key(facts), facts, inputs) else { return nil }
        reused += 1
        return k
    }

    /// Remembers the decision or forecast just made from `inputs` and `facts`.
    func remember(_ facts: ProbeFacts, _ inputs: Inputs, evaluation: Evaluation? = nil, forecast: SetForecast? = nil) {
        made += 1
        remember(inputs.key(facts), Entry(facts: facts, policy: inputs.selected?.policy, outlook: inputs.outlook,
                                          evaluation: evaluation, forecast: forecast))
    }

    /// The entry of `key` made from these inputs: the same policy (a copy of the one the set selected), outlook
    /// and facts (`ProbeFacts.judgedAlike`). Read in place: a copy of an entry would retain each of its fields.
    private func find(_ key: Key, _ facts: ProbeFacts, _ inputs: Inputs) -> Int? {
        var next = first[key]
        let found: Int? = slots.withUnsafeBufferPointer { b in
            while let k = next {
                let samePolicy = switch (b[k].policy, inputs.selected?.policy) {
                case (nil, nil): true
                case let (a?, p?): a.isCopy(of: p)
                default: false
                }
                if samePolicy && b[k].outlook == inputs.outlook && b[k].facts.judgedAlike(facts) { return k }
                next = b[k].next
            }
            return nil
        }
        lastFound = found
        return found
    }

    /// Starts the judging of one probe's facts: `share` then shares only what a lookup for these facts found.
    func begin() { lastFound = nil }

    /// What `facts` hold in common with the entry a lookup since `begin` found for them, shared with it: the
    /// chains, CT observation and client paths that lookup found equal (`judgedAlike`). Once shared they are
    /// compared at once the next time, and held once in memory. Nothing when no lookup found one.
    func share(into facts: inout ProbeFacts) {
        guard let k = lastFound else { return }
        facts.servedChain = slots[k].facts.servedChain
        facts.verifiedChain = slots[k].facts.verifiedChain
        facts.ct = slots[k].facts.ct
        facts.clientPaths = slots[k].facts.clientPaths
    }

    private func remember(_ key: Key, _ entry: Entry) {
        if slots.count >= capacity {
            slots.removeAll(keepingCapacity: true)
            first.removeAll(keepingCapacity: true)
            lastFound = nil
        }
        var entry = entry
        entry.next = first[key]
        first[key] = slots.count
        slots.append(entry)
    }
}

extension ProbeFacts {
    /// Whether a decision or a forecast made from `other` is the one made from these facts, for a host the
    /// set gives the same policy: every field they read (not the host, the address, the port, the timings).
    @inline(__always)
    public func judgedAlike(_ other: ProbeFacts) -> Bool {
        trusted == other.trusted && (error == nil) == (other.error == nil) && servedChain == other.servedChain
            && verifiedChain == other.verifiedChain && ct == other.ct && clientPaths == other.clientPaths
    }
}
