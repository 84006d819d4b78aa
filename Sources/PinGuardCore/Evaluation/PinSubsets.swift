import Foundation

/// One shared array per distinct subset of a host policy's pins that evaluations hold (`reservePins`,
/// `matchedPins`): thousands of targets under one policy match and keep in reserve the same pins, and
/// each evaluation would otherwise hold arrays of its own (two allocations per policy set per target,
/// made again by every reload that judges it). Owned by one `HostPolicy` and replaced whenever its pins
/// change, so a subset is always one of those pins.
final class PinSubsets: @unchecked Sendable {
    /// A subset of matched pins: which pins (bit `i` is `pins[i]`) and, four bits per matched pin in
    /// order, the one depth each matched.
    struct MatchKey: Hashable {
        var mask: UInt64
        var depths: UInt64
    }

    /// Distinct subsets kept per kind; past this many (a policy with many pins over many unlike chains)
    /// further subsets are not shared.
    static let limit = 256

    private let lock = NSLock()
    // Guarded by `lock`.
    private var reserves: [UInt64: [Pin]] = [:]
    private var matches: [MatchKey: [PinMatch]] = [:]

    /// The shared array of `pins` whose bit is set in `mask` (`pins.count` ≤ 64).
    func reserve(_ mask: UInt64, of pins: [Pin]) -> [Pin] {
        if mask == 0 { return [] }
        if mask == PinSubsets.all(pins.count) { return pins }
        lock.lock()
        defer { lock.unlock() }
        if let shared = reserves[mask] { return shared }
        let subset = pins.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { pins[$0] }
        if reserves.count < PinSubsets.limit { reserves[mask] = subset }
        return subset
    }

    /// The shared array equal to `matched`, made of `pins` as `key` says.
    func matched(_ matched: [PinMatch], key: MatchKey) -> [PinMatch] {
        if matched.isEmpty { return [] }
        lock.lock()
        defer { lock.unlock() }
        if let shared = matches[key] { return shared }
        if matches.count < PinSubsets.limit { matches[key] = matched }
        return matched
    }

    /// The mask of all of `count` pins.
    static func all(_ count: Int) -> UInt64 { count >= 64 ? .max : (1 << UInt64(count)) - 1 }
}
