/// How serious a lint or import finding is; the raw values are what reports print.
public enum FindingSeverity: String, Sendable, Codable, CaseIterable, Comparable {
    /// The policy is wrong or will break clients; `lint` exits 1.
    case error
    /// Risky but possibly intended; `lint --strict` exits 1.
    case warning
    /// Worth knowing; never changes the exit code.
    case info

    /// Errors sort first.
    public static func < (lhs: FindingSeverity, rhs: FindingSeverity) -> Bool {
        lhs.rank < rhs.rank
    }

    var rank: Int {
        switch self {
        case .error: return 0
        case .warning: return 1
        case .info: return 2
        }
    }
}
