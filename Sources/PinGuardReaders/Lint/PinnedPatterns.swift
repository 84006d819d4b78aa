import PinGuardCore

/// The patterns a native file pins (rules with at least one pin), to tell whether a platform exception
/// weakens a pinned domain, which raises its finding from a warning to an error.
///
/// Indexed by domain and by every parent domain, so a lookup costs the number of labels of the name asked
/// about, not the number of patterns: a hostile file's tens of thousands of exceptions stay linear.
struct PinnedPatterns {
    /// Pinned patterns by their domain.
    private var byDomain: [String: [HostPattern]] = [:]
    /// Up to a few pinned patterns strictly under each parent domain of a pinned domain.
    private var underDomain: [String: [HostPattern]] = [:]

    /// The pinned patterns of every environment of `sets`.
    init(_ sets: [PolicySet]) {
        for set in sets {
            for env in set.environments.values {
                for rule in env.rules where !rule.policy.pins.isEmpty {
                    let p = rule.pattern
                    if byDomain[p.domain]?.contains(p) == true { continue }
                    byDomain[p.domain, default: []].append(p)
                    var rest = Substring(p.domain)
                    while let dot = rest.firstIndex(of: ".") {
                        rest = rest[rest.index(after: dot)...]
                        if underDomain[String(rest), default: []].count < 3 { underDomain[String(rest), default: []].append(p) }
                    }
                }
            }
        }
    }

    /// Pinned patterns that share hosts with `domain` (and, with `subdomains`, with every name under it); a
    /// few of them, in no particular order, for naming in a message.
    func overlapping(_ domain: String, subdomains: Bool) -> [HostPattern] {
        let d = HostPattern.normalize(domain)
        var out: [HostPattern] = []
        var suffix = Substring(d)
        while true {
            out += (byDomain[String(suffix)] ?? []).filter { $0.matches(d) && !out.contains($0) }
            guard let dot = suffix.firstIndex(of: ".") else { break }
            suffix = suffix[suffix.index(after: dot)...]
        }
        if subdomains {
            for p in (byDomain[d] ?? []) + (underDomain[d] ?? []) where !out.contains(p) { out.append(p) }
        }
        return Array(out.prefix(3))
    }
}
