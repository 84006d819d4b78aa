import Foundation

/// Turns probe facts, a policy set and `now` into the decision the pinned client would reach (docs/reference.md, Policy files and Evaluation).
public enum Evaluator {
    /// Seconds per day, for the derived day counts.
    public static let secondsPerDay = 86_400.0

    /// Evaluates `facts` against `policySet` in `environment`.
    ///
    /// - Parameters:
    ///   - named: whether the target names this set explicitly; an unnamed set that has no policy for the
    ///     host is not evaluated (returns nil), a named one yields `policy_missing`.
    ///   - detailed: false when only the decision and the policy are read (the forecast's candidate chains):
    ///     the same decision, without what only reports read (reserve and raw-key pins, the pin horizon, the
    ///     shared arrays of matched pins).
    public static func evaluate(_ facts: ProbeFacts, policySet: PolicySet, environment: String, named: Bool,
                                now: Date, detailed: Bool = true) -> Evaluation? {
        evaluate(facts, on: Trust(facts), selected: selection(policySet, environment: environment, host: facts.host),
                 policySet: policySet, environment: environment, named: named, now: now, detailed: detailed)
    }

    /// The policy `policySet` has for `host` in `environment`, with the pattern that chose it (nil when none):
    /// what every decision of one set on one host starts from, looked up once by a caller that makes several.
    static func selection(_ policySet: PolicySet, environment: String, host: String) -> Selection {
        policySet.environments[environment]?.policy(for: host)
    }

    /// A host's policy in a set and the pattern that chose it.
    typealias Selection = (policy: HostPolicy, pattern: String)?

    /// The chain a decision is made on and whether the client trusts it: the probe's own (`Trust(facts)`), or
    /// one client's path, without a copy of the probe's facts.
    struct Trust {
        var chain: [ChainCertificate]
        var trusted: Bool

        init(_ facts: ProbeFacts) { (chain, trusted) = (facts.evaluatedChain, facts.trusted) }
        init(chain: [ChainCertificate], trusted: Bool) { (self.chain, self.trusted) = (chain, trusted) }
    }

    /// `evaluate(_:policySet:environment:named:now:detailed:)` on `trust`'s chain, with the set's policy for
    /// the host already `selected`.
    static func evaluate(_ facts: ProbeFacts, on trust: Trust, selected: Selection, policySet: PolicySet,
                         environment: String, named: Bool, now: Date, detailed: Bool = true) -> Evaluation? {
        if selected == nil && !named { return nil }
        var e = Evaluation(policySet: policySet.name, environment: environment, pattern: selected?.pattern,
                           verdict: .none, reason: .probeFailed, policy: selected?.policy, matchedPins: [],
                           reservePins: [], pinHorizon: nil, earliestExpiry: nil, daysToPinBreakage: nil,
                           daysToExpiry: nil)
        guard facts.success else { return e }
        let chain = trust.chain
        let trustVerdict: Verdict = trust.trusted ? .accept : .reject
        e.earliestExpiry = chain.lazy.map(\.notAfter).min()
        e.daysToExpiry = e.earliestExpiry.map { $0.timeIntervalSince(now) / secondsPerDay }

        // The clients check CT as part of trust, before any pin is looked at.
        e.ct = policySet.ctPolicy(under: selected?.policy).flatMap { trust.trusted ? facts.ct.judgement($0) : nil }
        e.ctClient = e.ct == nil ? nil : policySet.client
        let ctFails = e.ct.map { !$0.compliant } ?? false
        guard let policy = selected?.policy else {
            e.verdict = ctFails ? .reject : trustVerdict
            e.reason = ctFails ? .ctNotCompliant : .policyMissing
            return e
        }
        e.matchedPins = matches(policy.pins, in: chain)
        if detailed {
            e.matchedPins = shared(e.matchedPins, of: policy)
            e.rawKeyPins = RawKeyPin.find(policy.pins, in: chain)
            e.reservePins = reservePins(of: policy, chain: chain)
            e.pinHorizon = horizon(of: e.matchedPins, in: chain)
            e.daysToPinBreakage = e.pinHorizon.map { $0.timeIntervalSince(now) / secondsPerDay }
        }

        if ctFails {
            e.verdict = .reject
            e.reason = .ctNotCompliant
            return e
        }
        if let expires = policy.expires, expires < now {
            e.verdict = trustVerdict
            e.reason = .pinSetExpired
            return e
        }
        if policy.requireSystemTrust && !trust.trusted {
            switch policy.failStrategy {
            case .strict: e.verdict = .reject; e.reason = .systemTrustFailed
            case .permissive: e.verdict = .accept; e.reason = .systemTrustFailedPermissive
            }
            return e
        }
        if policy.pins.isEmpty {
            e.verdict = trustVerdict
            e.reason = .pinSetEmpty
            return e
        }
        if accepts(policy, matched: e.matchedPins) {
            e.verdict = .accept
            e.reason = .pinMatch
        } else if policy.allowSystemTrustFallback && trust.trusted {
            e.verdict = .accept
            e.reason = .pinMismatchAllowedByFallback
        } else if policy.failStrategy == .permissive {
            e.verdict = .accept
            e.reason = .pinMismatchPermissive
        } else {
            e.verdict = .reject
            e.reason = .pinMismatch
        }
        return e
    }

    /// The latest notAfter among the certificates of `chain` that `matched` pins matched.
    static func horizon(of matched: [PinMatch], in chain: [ChainCertificate]) -> Date? {
        var latest: Date?
        for c in chain where matched.contains(where: { $0.depths.contains(c.depth) }) {
            let end = c.notAfter
            if latest.map({ end > $0 }) ?? true { latest = end }
        }
        return latest
    }

    /// Whether the matched pins satisfy the policy's match mode.
    static func accepts(_ policy: HostPolicy, matched: [PinMatch]) -> Bool {
        switch policy.matchMode {
        case .any:
            return !matched.isEmpty
        case .eachGroup:
            let groups = Set(policy.pins.map { $0.group ?? "" })
            let satisfied = Set(matched.map { $0.pin.group ?? "" })
            return !groups.isEmpty && groups.isSubset(of: satisfied)
        }
    }

    /// Pins that match a certificate of `chain` within their type and scope.
    public static func matches(_ pins: [Pin], in chain: [ChainCertificate]) -> [PinMatch] {
        let anchorDepth = ChainPositions.anchorDepth(of: chain)
        var out: [PinMatch] = []
        for pin in pins {
            // Most pins match no certificate or one: an array is made only for a pin that matches two.
            var first: Int?
            var more: [Int] = []
            for cert in chain where inScope(pin, depth: cert.depth, anchorDepth: anchorDepth) && hashMatches(pin, cert) {
                if let f = first { if more.isEmpty { more = [f] }; more.append(cert.depth) } else { first = cert.depth }
            }
            guard let f = first else { continue }
            out.append(PinMatch(pin: pin, depths: !more.isEmpty ? more : f < singleDepths.count ? singleDepths[f] : [f]))
        }
        return out
    }

    /// `[d]` for the usual depths: a pin almost always matches one certificate, and every result would
    /// otherwise hold a one-element array of its own per matched pin.
    static let singleDepths: [[Int]] = (0..<8).map { [$0] }

    /// Configured pins that match no certificate of `chain`, whatever their scope.
    public static func reservePins(_ pins: [Pin], chain: [ChainCertificate]) -> [Pin] {
        pins.filter { pin in !chain.contains { hashMatches(pin, $0) } }
    }

    /// `reservePins(policy.pins, chain:)`, as the array the policy's evaluations share.
    static func reservePins(of policy: HostPolicy, chain: [ChainCertificate]) -> [Pin] {
        let pins = policy.pins
        guard pins.count <= 64 else { return reservePins(pins, chain: chain) }
        var mask: UInt64 = 0
        for (i, pin) in pins.enumerated() where !chain.contains(where: { hashMatches(pin, $0) }) { mask |= 1 << UInt64(i) }
        return policy.subsets.reserve(mask, of: pins)
    }

    /// `matched` (matches of `policy.pins`, in their order), as the array the policy's evaluations share
    /// when each pin matched one certificate at depth 15 or less and at most 16 matched.
    static func shared(_ matched: [PinMatch], of policy: HostPolicy) -> [PinMatch] {
        guard !matched.isEmpty, matched.count <= 16, policy.pins.count <= 64 else { return matched }
        var key = PinSubsets.MatchKey(mask: 0, depths: 0)
        var next = 0
        for (k, m) in matched.enumerated() {
            guard m.depths.count == 1, (0..<16).contains(m.depths[0]),
                  let i = policy.pins[next...].firstIndex(of: m.pin) else { return matched }
            key.mask |= 1 << UInt64(i)
            key.depths |= UInt64(m.depths[0]) << UInt64(4 * k)
            next = i + 1
        }
        return policy.subsets.matched(matched, key: key)
    }

    static func hashMatches(_ pin: Pin, _ cert: ChainCertificate) -> Bool {
        switch (pin.type, pin.algorithm) {
        case (.spki, .sha256), (.ca, .sha256): return cert.spkiSHA256 == pin.hash
        case (.spki, .sha1), (.ca, .sha1): return cert.spkiSHA1 == pin.hash
        case (.certificate, .sha256): return cert.certSHA256 == pin.hash
        case (.certificate, .sha1): return false
        }
    }

    static func inScope(_ pin: Pin, depth: Int, anchorDepth: Int?) -> Bool {
        if pin.type == .ca && depth == 0 { return false }
        switch pin.scope {
        case .any: return true
        case .leaf: return depth == 0
        case .root: return depth == anchorDepth
        case .intermediate: return depth > 0 && depth != anchorDepth
        }
    }
}
