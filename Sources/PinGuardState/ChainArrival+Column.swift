import PinGuardCore

extension ChainArrival {
    /// The `arrival` column's value (see `StateSchema`).
    var column: Int64 {
        switch self {
        case .firstSight: 0
        case .renewal: 1
        case .addressCaughtUp: 2
        case .rollback: 3
        case .sameLeaf: 4
        }
    }

    /// Whether a renewal kept the key; false for other arrivals.
    var keyReused: Bool {
        if case .renewal(let keyReused, _) = self { return keyReused }
        return false
    }

    /// Whether a renewal changed the issuer; false for other arrivals.
    var issuerChanged: Bool {
        if case .renewal(_, let issuerChanged) = self { return issuerChanged }
        return false
    }

    /// The arrival stored as `column` with its two renewal flags; nil for an unknown value.
    init?(column: Int64, keyReused: Bool, issuerChanged: Bool) {
        switch column {
        case 0: self = .firstSight
        case 1: self = .renewal(keyReused: keyReused, issuerChanged: issuerChanged)
        case 2: self = .addressCaughtUp
        case 3: self = .rollback
        case 4: self = .sameLeaf
        default: return nil
        }
    }
}
