/// A range of a client's versions: Android API levels, iOS releases or Chrome milestones (`"24-37"`, `"34"`,
/// `"24-"` for 24 and every later one). The versions of one client are whole numbers; a store without
/// versions (`jvm`) is judged as one.
public struct ClientVersions: Sendable, Hashable, CustomStringConvertible {
    /// The first version in the range.
    public var lower: Int
    /// The last version in the range; nil: every version from `lower` on.
    public var upper: Int?

    /// The versions `lower` through `upper` (nil: open ended).
    public init(lower: Int, upper: Int?) {
        self.lower = lower
        self.upper = upper
    }

    /// Versions are whole numbers from 0 to 9999: beyond that a range is a typo.
    public static let largest = 9_999

    /// Parses `"A-B"`, `"A-"` or `"A"`; nil for anything else (a range that ends before it starts, a
    /// number out of 0...9999, a sign, a space).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        func number(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.count <= 4, s.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(s) else { return nil }
            return n
        }
        guard let first = parts.first.flatMap(number) else { return nil }
        if parts.count == 1 {
            self.init(lower: first, upper: first)
        } else if parts[1].isEmpty {
            self.init(lower: first, upper: nil)
        } else {
            guard let last = number(parts[1]), last >= first else { return nil }
            self.init(lower: first, upper: last)
        }
    }

    /// `"24-37"`, `"34"` or `"24-"`.
    public var description: String {
        guard let upper else { return "\(lower)-" }
        return upper == lower ? "\(lower)" : "\(lower)-\(upper)"
    }

    /// Whether `version` is in the range.
    public func contains(_ version: Int) -> Bool { version >= lower && upper.map { version <= $0 } ?? true }

    /// The versions in both ranges; nil when they share none.
    public func intersection(_ other: ClientVersions) -> ClientVersions? {
        let low = max(lower, other.lower)
        let high: Int? = switch (upper, other.upper) {
        case (nil, nil): nil
        case (let a?, nil): a
        case (nil, let b?): b
        case (let a?, let b?): min(a, b)
        }
        if let high, high < low { return nil }
        return ClientVersions(lower: low, upper: high)
    }

    /// The version after the range, nil when it is open ended.
    var next: Int? { upper.map { $0 + 1 } }
}
