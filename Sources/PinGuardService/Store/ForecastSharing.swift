import PinGuardCore

/// One shared copy of each forecast array and issuer pool that many results hold alike.
///
/// A fleet served by one CA forecasts every target under the same issuers, and every target that no renewal
/// breaks gets the same per-set forecasts (ratio 0, no breakage date); holding each such array once keeps
/// about 400 bytes per target off the heap of a 100,000-target service. Arrays with a breakage date (one per
/// leaf) are left alone. The tables are bounded: when one is full it starts over.
struct ForecastSharing {
    private var forecasts: [[SetForecast]: [SetForecast]] = [:]
    private var pools: [String: [IssuerOption]] = [:]
    /// Distinct arrays each table holds at most.
    static let capacity = 1_024

    /// Replaces `result`'s forecasts and, with `pools`, its outlook issuers by the shared copies of equal ones
    /// (a reload that built no outlook leaves the pools as they are: already shared).
    mutating func share(_ result: inout TargetResult, pools sharePools: Bool = true) {
        if !result.forecasts.isEmpty, result.forecasts.allSatisfy({ $0.breakage == nil }) {
            if let shared = forecasts[result.forecasts] {
                result.forecasts = shared
            } else {
                if forecasts.count >= Self.capacity { forecasts.removeAll(keepingCapacity: true) }
                forecasts[result.forecasts] = result.forecasts
            }
        }
        guard sharePools, let issuers = result.outlook?.issuers, !issuers.isEmpty else { return }
        let key = Self.key(issuers)
        if let shared = pools[key], shared == issuers {
            result.outlook?.issuers = shared
        } else {
            if pools.count >= Self.capacity { pools.removeAll(keepingCapacity: true) }
            pools[key] = issuers
        }
    }

    /// What tells pools apart: each option's name and certificates (equal pools are checked in full).
    private static func key(_ issuers: [IssuerOption]) -> String {
        issuers.map { ([$0.name] + $0.chain.map(\.certSHA256)).joined(separator: " ") }.joined(separator: "\n")
    }
}
