extension HostPattern {
    /// Whether every host this pattern matches is also matched by `other`.
    package func isContained(in other: HostPattern) -> Bool {
        switch (self, other) {
        case (.exact(let a), .exact(let b)):
            return a == b
        case (.exact(let a), .oneLabel), (.exact(let a), .anyDepth):
            return other.matches(a)
        case (.oneLabel(let a), .oneLabel(let b)):
            return a == b
        case (.oneLabel(let a), .anyDepth(let b)), (.anyDepth(let a), .anyDepth(let b)):
            return a == b || a.hasSuffix("." + b)
        case (.oneLabel, .exact), (.anyDepth, .exact), (.anyDepth, .oneLabel):
            return false
        }
    }

    /// Precedence of pattern kinds when several match a host: exact, then `*.`, then the longest `**.`.
    /// Higher wins.
    var precedence: (Int, Int) {
        switch self {
        case .exact: return (2, 0)
        case .oneLabel: return (1, 0)
        case .anyDepth(let d): return (0, d.count)
        }
    }

    /// Whether a host matching both would be given this pattern's policy rather than `other`'s.
    package func outranks(_ other: HostPattern) -> Bool {
        precedence > other.precedence
    }
}
