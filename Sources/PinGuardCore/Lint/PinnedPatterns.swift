/// The patterns a native file pins (rules with at least one pin), to tell whether a platform exception
/// weakens a pinned domain, which raises its finding from a warning to an error.
struct PinnedPatterns {
    let patterns: [HostPattern]

    /// The pinned patterns of every environment of `sets`.
    init(_ sets: [PolicySet]) {
        var out: [HostPattern] = []
        for set in sets {
            for env in set.environments.values {
                for rule in env.rules where !rule.policy.pins.isEmpty && !out.contains(rule.pattern) {
                    out.append(rule.pattern)
                }
            }
        }
        patterns = out
    }

    /// Pinned patterns that share hosts with `domain` (and, with `subdomains`, with every name under it).
    func overlapping(_ domain: String, subdomains: Bool) -> [HostPattern] {
        let d = HostPattern.normalize(domain)
        return patterns.filter { p in
            p.matches(d) || (subdomains && (p.domain == d || p.domain.hasSuffix("." + d)))
        }
    }
}
