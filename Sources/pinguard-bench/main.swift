// pinguard-bench: measures /metrics rendering and memory for synthetic results (no network).
// Usage: pinguard-bench [TARGETS] [POLICY_SETS] [REPEATS]
import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardService
#if canImport(Glibc)
import Glibc
#endif

/// Current resident set size of this process in MiB.
func residentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kib / 1024
}

/// Milliseconds `body` takes.
func milliseconds(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
}

/// Peak resident set size of this process in MiB (getrusage maxrss is KiB on Linux).
func peakRSSMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

func hash(_ i: Int, _ salt: UInt8) -> String {
    var bytes = [UInt8](repeating: salt, count: 32)
    withUnsafeBytes(of: UInt64(i).littleEndian) { for (k, b) in $0.enumerated() { bytes[k] = b } }
    return Base64.encode(bytes)
}

// As `pinguard serve` sets the allocator up.
MallocTuning.limitArenas(4)
MallocTuning.fixMmapThreshold(1 << 20)
let args = CommandLine.arguments
let targets = args.count > 1 ? Int(args[1]) ?? 10_000 : 10_000
let setCount = args.count > 2 ? Int(args[2]) ?? 2 : 2
let repeats = args.count > 3 ? Int(args[3]) ?? 20 : 20
let now = Date()
let rssBefore = peakRSSMiB()

let root = ChainCertificate(depth: 2, subject: "CN=Bench Root,O=pinguard bench", issuer: "CN=Bench Root,O=pinguard bench", serial: "01",
                            notBefore: now.addingTimeInterval(-86_400 * 365), notAfter: now.addingTimeInterval(86_400 * 3650),
                            spkiSHA256: hash(0, 3), certSHA256: hash(0, 4), keyType: "EC-256", isCA: true, selfIssued: true, source: .store)
let intermediate = ChainCertificate(depth: 1, subject: "CN=Bench Intermediate,O=pinguard bench", issuer: root.subject, serial: "02",
                                    notBefore: now.addingTimeInterval(-86_400 * 30), notAfter: now.addingTimeInterval(86_400 * 1825),
                                    spkiSHA256: hash(0, 5), certSHA256: hash(0, 6), keyType: "EC-256", isCA: true, source: .served)
var sets: [PolicySet] = []
for s in 0..<setCount {
    let policy = HostPolicy(pins: [Pin(type: .ca, hash: intermediate.spkiSHA256), Pin(type: .spki, hash: hash(s, 9), role: .backup)])
    sets.append(PolicySet(name: "app-\(s)", environments: ["prod": PolicyEnvironment(rules: [
        PatternRule(pattern: .anyDepth("bench.pinguard.test"), policy: policy)])]))
}
var config = ServiceConfig()
config.targets = (0..<targets).map { Target(host: "t\($0).bench.pinguard.test", name: "target-\($0)") }
var snapshot = MetricsSnapshot()
snapshot.version = "bench"
snapshot.openSSLVersion = "bench"
snapshot.targets = targets
/// The result of target `i`: its own leaf under the shared intermediate and root. `parsed` builds every
/// certificate of each chain afresh, as a probe does (it parses the served and the verified chain apart),
/// instead of reusing the same values.
@MainActor func result(_ i: Int, parsed: Bool = false) -> TargetResult {
    let host = "t\(i).bench.pinguard.test"
    func leaf() -> ChainCertificate {
        ChainCertificate(depth: 0, subject: "CN=\(host)", issuer: intermediate.subject, serial: String(i, radix: 16),
                         notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(86_400 * 90),
                         spkiSHA256: hash(i, 1), certSHA256: hash(i, 2), keyType: "EC-256", source: .served)
    }
    func copy(_ c: ChainCertificate) -> ChainCertificate {
        guard parsed else { return c }
        return ChainCertificate(depth: c.depth, subject: String(c.subject.utf8), issuer: String(c.issuer.utf8), serial: String(c.serial.utf8),
                                notBefore: c.notBefore, notAfter: c.notAfter, spkiSHA256: String(c.spkiSHA256.utf8),
                                certSHA256: String(c.certSHA256.utf8), keyType: String(c.keyType.utf8), isCA: c.isCA,
                                selfIssued: c.selfIssued, source: c.source)
    }
    let served = leaf()
    let facts = ProbeFacts(host: host, port: 443, address: "127.0.0.1:443", duration: 0.004, tlsVersion: "TLSv1.3",
                           servedChain: [served, copy(intermediate)],
                           verifiedChain: [parsed ? leaf() : served, copy(intermediate), copy(root)], trusted: true, finishedAt: now)
    return TargetResult.evaluate(facts, target: Target(host: host, name: "target-\(i)"), sets: sets, now: now)
}

// What one result costs a service: a fresh store records results built as a probe builds them (every
// chain parsed on its own) and nothing else keeps them. Measured first, on a heap nothing else has used
// yet, and dropped again before the rest.
let beforeStore = residentMiB()
var heldMiB = 0.0
do {
    let fresh = ResultStore(config: config, sets: sets)
    for i in 0..<targets { _ = fresh.record(result(i, parsed: true), generation: 0, now: now) }
    MallocTuning.trim()
    withExtendedLifetime(fresh) { heldMiB = residentMiB() - beforeStore }
}
MallocTuning.trim()
let heldLine = String(format: "  a fresh ResultStore holds %.0f bytes per result (resident %.1f MiB more with %d results)",
                      heldMiB * 1_048_576 / Double(max(targets, 1)), heldMiB, targets)
if ProcessInfo.processInfo.environment["BENCH_STORE_ONLY"] != nil {  // for a heap profiler: the store phase alone
    print(heldLine)
    exit(0)
}

let evalStart = Date()
for i in 0..<targets { snapshot.results.append(result(i)) }
let evalSeconds = Date().timeIntervalSince(evalStart)
let rssResults = residentMiB()
var times: [Double] = []
var size = 0
for _ in 0..<repeats {
    let t0 = DispatchTime.now().uptimeNanoseconds
    let chunks = MetricsRenderer.renderChunks(snapshot)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    size = chunks.reduce(0) { $0 + $1.count }
}
times.sort()
let lines = MetricsRenderer.renderChunks(snapshot).reduce(0) { n, c in n + c.lazy.filter { $0 == UInt8(ascii: "\n") }.count }
if let path = ProcessInfo.processInfo.environment["BENCH_EXPOSITION"] {  // the exposition itself, for a real Prometheus to scrape
    _ = FileManager.default.createFile(atPath: path, contents: Data(MetricsRenderer.render(snapshot)))
}
print("metrics: \(targets) targets x \(setCount) policy sets")
print(String(format: "  evaluate all targets:   %.1f ms", evalSeconds * 1000))
print(String(format: "  render /metrics:        median %.1f ms, min %.1f ms, max %.1f ms over %d renders", times[times.count / 2], times[0], times[times.count - 1], repeats))
print(String(format: "  exposition size:        %.1f MiB, %d lines", Double(size) / 1_048_576, lines))
print(String(format: "  peak RSS:               %.1f MiB (%.1f MiB before building results, %.1f MiB resident with the results)",
             peakRSSMiB(), rssBefore, rssResults))

// What a live service does: results in a ResultStore, /metrics from the per-slice compressed cache.
let store = ResultStore(config: config, sets: sets)
for r in snapshot.results { _ = store.record(r, generation: 0, now: now) }
let cache = ExpositionCache(store: store, level: Int32(ProcessInfo.processInfo.environment["BENCH_ZLIB_LEVEL"] ?? "") ?? 6)
var service = MetricsSnapshot()
service.version = "bench"
var wire = 0
let cold = milliseconds { wire = cache.body(service: service, gzip: true).length }
var hot: [Double] = []
for _ in 0..<repeats { hot.append(milliseconds { _ = cache.body(service: service, gzip: true) }) }
hot.sort()
// A round in progress (probes run in configuration order): the next 1% of the targets got a new result
// since the last scrape; and the worst case, every 100th target changed (every slice to render again).
var warm: [Double] = []
let step = max(1, targets / 100)
for k in 0..<max(1, repeats / 2) {
    for i in (k * step % targets)..<min(targets, k * step % targets + step) { _ = store.record(snapshot.results[i], generation: 0, now: now) }
    warm.append(milliseconds { _ = cache.body(service: service, gzip: true) })
}
warm.sort()
for i in stride(from: 0, to: targets, by: 100) { _ = store.record(snapshot.results[i], generation: 0, now: now) }
let scattered = milliseconds { _ = cache.body(service: service, gzip: true) }
print("cached gzip /metrics (slices of \(ResultStore.sliceSize) targets, zlib level \(cache.level), \(ExpositionCache.workers) threads):")
print(String(format: "  body on the wire:       %.1f MiB", Double(wire) / 1_048_576))
print(String(format: "  every slice rendered:   %.1f ms (after a reload, or the first scrape)", cold))
print(String(format: "  nothing changed:        median %.1f ms, max %.1f ms", hot[hot.count / 2], hot[hot.count - 1]))
print(String(format: "  next 1%% of targets changed: median %.1f ms, max %.1f ms", warm[warm.count / 2], warm[warm.count - 1]))
print(String(format: "  every 100th target changed: %.1f ms", scattered))
// A policy edit (a backup pin added, then removed again): every result is judged again.
var edited = sets
edited[0].environments["prod"]?.rules[0].policy.pins.append(Pin(type: .spki, hash: hash(1, 7), role: .backup))
var rejudge: [Double] = []
for k in 0..<3 { rejudge.append(milliseconds { _ = store.apply(config: config, sets: k % 2 == 0 ? edited : sets, now: now) }) }
rejudge.sort()
print(String(format: "reload after a policy edit, every result judged again (ResultStore.apply): min %.1f ms, median %.1f ms, max %.1f ms",
             rejudge[0], rejudge[1], rejudge[2]))
let unchanged = milliseconds { _ = store.apply(config: config, sets: edited, now: now) }  // the sets in force since the last edit
print(String(format: "reload with nothing changed, results kept (ResultStore.apply): %.1f ms", unchanged))
snapshot.results = []
MallocTuning.trim()
print(String(format: "  resident with the store and the cache: %.1f MiB (peak %.1f MiB)", residentMiB(), peakRSSMiB()))
print(heldLine)

if ProcessInfo.processInfo.environment["BENCH_CHUNKS"] != nil {
    for c in MetricsRenderer.renderChunks(snapshot) {
        let name = String(decoding: c.prefix(80), as: UTF8.self).split(separator: " ")[2]
        print("  \(name): \(c.count / max(targets, 1)) bytes/target")
    }
}
