// pinguard-cache-bench: what the verification cache holds at scale, without a network: ENTRIES distinct
// served chains (default 131,072, the cache's capacity) stored as a probe stores them, each with its
// checked name and a three-certificate chain, then every one looked up again.
// Usage: pinguard-cache-bench [ENTRIES]
import Foundation
import PinGuardProbe
import PinGuardService

/// Current resident set size of this process in MiB, as `process_resident_memory_bytes` reads it.
func residentMiB() -> Double { (ProcessStatsReader.read().residentMemoryBytes ?? 0) / 1_048_576 }

/// A digest-like key for chain `i` (splitmix64 of i, four words).
func key(_ i: Int) -> VerificationKey {
    var state = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
    var words: [UInt64] = []
    for _ in 0..<4 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        words.append(z ^ (z >> 31))
    }
    return words.withUnsafeBytes { VerificationKey(digest: $0) }
}

// As `pinguard serve` sets the allocator up.
MallocTuning.limitArenas(4)
MallocTuning.fixMmapThreshold(1 << 20)
let entries = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 131_072 : 131_072
let now = Date()
let cache = VerificationCache(storeBoundaries: [now.addingTimeInterval(86_400 * 3650)], capacity: 1 << 17, now: { now })
let keys = (0..<entries).map(key)
let names = (0..<entries).map { "t\($0).bench.pinguard.test" }
let rss0 = residentMiB()
let t0 = DispatchTime.now().uptimeNanoseconds
for i in 0..<entries {
    let outcome = VerificationOutcome(identity: CheckedIdentity(hosts: [names[i]]), returned: 1, error: 0, errorDepth: 0,
                                      chain: [.served(0), .served(1), .served(2)], validUntil: now.addingTimeInterval(86_400 * 45))
    cache.store(outcome, for: keys[i], at: now)
}
let t1 = DispatchTime.now().uptimeNanoseconds
var found = 0
for k in keys where cache.outcome(for: k, at: now) != nil { found += 1 }
let t2 = DispatchTime.now().uptimeNanoseconds
let grown = residentMiB() - rss0
print("verification cache: \(entries) distinct chains stored (capacity \(cache.capacity)), \(found) still held")
print(String(format: "  resident +%.1f MiB (%.0f bytes per chain held)", grown, grown * 1_048_576 / Double(max(found, 1))))
print(String(format: "  store %.2f µs, lookup %.2f µs per chain", Double(t1 - t0) / 1e3 / Double(max(entries, 1)),
             Double(t2 - t1) / 1e3 / Double(max(entries, 1))))
