// Prints the state store's figures at scale: `pinguard-state-bench [TARGETS] [DIRECTORY | postgresql://URL]`
// (100,000 targets of one address each, in a new temporary directory, by default; with a URL, in that empty
// PostgreSQL database, the shared memory: scripts/bench-shared-state.sh starts one).
import Foundation
import PinGuardCore
import PinGuardState

#if os(Linux)
let rusageSelf = Int32(RUSAGE_SELF.rawValue)
#else
let rusageSelf = RUSAGE_SELF
#endif

/// CPU seconds of this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Runs `body` and prints its wall and CPU time under `label`.
func measure<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
    let (wall, cpu) = (Date(), cpuSeconds())
    let result = try body()
    let line = String(format: "%-44@ wall %7.3f s  cpu %7.3f s", label as NSString,
                      Date().timeIntervalSince(wall), cpuSeconds() - cpu)
    print(line)
    return result
}

/// A deterministic digest for `value` in `family`.
func digest(_ family: UInt64, _ value: UInt64) -> ChainDigest {
    var x = value &* 0x9E37_79B9_7F4A_7C15 ^ family
    func next() -> UInt64 { x = (x ^ (x >> 31)) &* 0xBF58_476D_1CE4_E5B9; return x ^ (x >> 29) }
    return ChainDigest(words: (family, next(), next(), next()))
}

/// The chain target `index` serves in `generation` (a new leaf and key per generation).
func chain(_ index: Int, generation: UInt64) -> ServedChain {
    let leaf = UInt64(index) << 8 | generation
    return ServedChain(leafSerial: String(leaf, radix: 16, uppercase: true) + "0A1B2C3D4E5F", leafSHA256: digest(1, leaf),
                       leafSPKISHA256: digest(2, leaf), notBefore: 1_700_000_000 + Int64(generation) * 86_400,
                       notAfter: 1_710_000_000 + Int64(generation) * 86_400,
                       issuerSubject: "CN=Bench Issuing CA \(index % 4),O=Example,C=US",
                       issuerSPKISHA256: digest(3, UInt64(index % 4)), issuerSHA256: digest(4, UInt64(index % 4)),
                       anchorSPKISHA256: digest(5, 0))
}

/// Observes every target's chain of `generation` (renewing the targets `renewing` selects) and commits.
func round(_ store: StateStore, _ count: Int, now: Int64, label: String,
           renewing: (Int) -> Bool = { _ in false }) throws {
    let round = store.beginRound(now: now)
    measure("\(label): observe") {
        for index in 0..<count {
            round.observe(target: "target-\(index).example.com:443", address: "192.0.2.\(index % 250):443",
                          chain: chain(index, generation: renewing(index) ? 1 : 0))
        }
    }
    let written = try measure("\(label): commit") { try store.commit(round) }
    print("    wrote \(written.targetsWritten) targets, \(written.chainsInserted) chains inserted, "
          + "\(written.chainsTouched) touched")
}

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let start: Int64 = 1_750_000_000
if arguments.count > 2, arguments[2].hasPrefix("postgresql://") {
    try databaseBench(url: arguments[2], count: count)
    exit(0)
}
let directory = arguments.count > 2 ? arguments[2]
    : FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-state-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
let path = directory + "/state.db"
try? FileManager.default.removeItem(atPath: path)
print("\(count) targets x 1 address, \(path)")

var store: StateStore? = try measure("open new file") { try StateStore.open(path: path, readOnly: false) }
try round(store!, count, now: start, label: "first round")
try round(store!, count, now: start + 300, label: "steady round")
try round(store!, count, now: start + 3_600, label: "steady round, last_seen due")
try round(store!, count, now: start + 3_900, label: "1% renewed", renewing: { $0 % 100 == 0 })
store?.close()
store = nil

let files = ["", "-wal", "-shm"].map { path + $0 }
let bytes = files.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)
print(String(format: "file size after close: %.1f MB", Double(bytes) / 1e6))

let reopened = try measure("reopen writer (lock, check, load)") { try StateStore.open(path: path, readOnly: false) }
let chains = reopened.targetNames.count
print("    loaded \(chains) targets; renewals of target-0: \(reopened.renewalSummary(target: "target-0.example.com:443")?.renewals ?? -1)")
let reader = try measure("open reader while writer holds the file") { try StateStore.open(path: path, readOnly: true) }
print("    reader sees \(reader.targetNames.count) targets")
printPeakRSS()
if arguments.count <= 2 { try? FileManager.default.removeItem(atPath: directory) }

/// Prints this process's peak resident memory.
func printPeakRSS() {
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    print("peak RSS: \(usage.ru_maxrss / 1024) MiB")
}

/// The same rounds against the shared database at `url`, then what a restarted instance loads: all of it,
/// and one shard of three.
func databaseBench(url: String, count: Int) throws {
    print("\(count) targets x 1 address, PostgreSQL \(DatabaseURL.redacted(url))")
    let store = try measure("open (connect, create schema)") { try StateStore.open(database: url, readOnly: false) }
    try round(store, count, now: start, label: "first round")
    try round(store, count, now: start + 300, label: "steady round")
    try round(store, count, now: start + 3_600, label: "steady round, last_seen due")
    try round(store, count, now: start + 3_900, label: "1% renewed", renewing: { $0 % 100 == 0 })
    store.close()
    let reopened = try measure("reopen writer (connect, check, load all)") { try StateStore.open(database: url, readOnly: false) }
    print("    loaded \(reopened.targetNames.count) targets; renewals of target-0: "
          + "\(reopened.renewalSummary(target: "target-0.example.com:443")?.renewals ?? -1)")
    reopened.close()
    let shard = try measure("reopen one shard of three (load a third)") {
        try StateStore.open(database: url, readOnly: false, keep: { $0.utf8.reduce(0) { $0 &+ Int($1) } % 3 == 0 })
    }
    print("    loaded \(shard.targetNames.count) targets")
    printPeakRSS()
}
