// SPDX-License-Identifier: Apache-2.0
// What judging each client's own path costs a round: TARGETS distinct leaves (P-256) under one intermediate of a
// root generation move (the server sends leaf, intermediate, new-root-by-old-root cross-sign), judged for the four
// clients of the bundled stores, each store holding the test roots for some of its versions as Let's Encrypt's
// are held. Prints the searches, the CPU per target (first sight: a search per client; again: remembered) and the
// resident growth. No network. Usage: pinguard-paths-bench [TARGETS=10000]
import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardProbe
import PinGuardService

let targets = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 10_000
// CPU and resident memory as pinguard reports its own (process_cpu_seconds_total, process_resident_memory_bytes).
func cpu() -> Double { ProcessStatsReader.read().cpuSeconds ?? 0 }
func residentMB() -> Double { (ProcessStatsReader.read().residentMemoryBytes ?? 0) / 1_048_576 }

let day = 86_400.0
let oldKey = try DemoKey(.p256), newKey = try DemoKey(.p256), intKey = try DemoKey(.p256)
let oldRoot = try DemoCertificate.issue(commonName: "Bench Root X", dnsName: nil, key: oldKey, issuer: nil, isCA: true,
                                        validFrom: -3_000 * day, validUntil: 3_000 * day, serial: 1)
let newRoot = try DemoCertificate.issue(commonName: "Bench Root Y", dnsName: nil, key: newKey, issuer: nil, isCA: true,
                                        validFrom: -300 * day, validUntil: 5_000 * day, serial: 2)
let cross = try DemoCertificate.issue(commonName: "Bench Root Y", dnsName: nil, key: newKey, issuer: oldRoot, isCA: true,
                                      validFrom: -300 * day, validUntil: 1_500 * day, serial: 3)
let intermediate = try DemoCertificate.issue(commonName: "Bench Y1", dnsName: nil, key: intKey, issuer: newRoot, isCA: true,
                                             validFrom: -200 * day, validUntil: 900 * day, serial: 4)

// Each bundled store with the bench roots: the old root in every version, the new root from a later one.
var stores: [ClientStore] = []
for var data in try ClientTrustStores.bundled(path: ProcessInfo.processInfo.environment["STORES"] ?? BundledResource.path(ClientTrustStores.resourceName)) {
    let later = data.versionsKnown.map { ClientVersions(lower: $0.lower + 4, upper: nil) }
    for (cert, versions) in [(oldRoot, data.versionsKnown), (newRoot, later)] {
        let facts = try cert.facts
        data.roots.append(.init(der: cert.der, certSHA256: facts.certSHA256, subject: facts.subject, versions: versions))
    }
    stores.append(try ClientStore(data))
}
let judge = ClientPathJudge(stores: stores)
// As in serve: Chrome and Apple may take downloaded issuers (none is needed here: the intermediate is served).
judge.fetchIssuers(from: FetchedIssuers())
// The facts of the store's certificates as a prober reads them: once, from its cache.
let factsCache = CertificateFactsCache()

let leafKey = try DemoKey(.p256)
let leaves: [DemoCertificate] = try (0..<targets).map { i in
    try DemoCertificate.issue(commonName: "t\(i).bench.test", dnsName: "t\(i).bench.test", key: leafKey, issuer: intermediate,
                                            isCA: false, validFrom: -10 * day, validUntil: 80 * day, serial: 100 + i,
                              extendedKeyUsage: "serverAuth", caIssuers: "http://int.bench.test/int.cer")
}
let rssBefore = residentMB()
/// The paths of target `i`'s chain as a probe judges them.
@MainActor func judged(_ i: Int) throws -> ClientPaths {
    let chain = [leaves[i], intermediate, cross]
    let facts = try chain.enumerated().map { d, c in var f = try c.facts; f.depth = d; return f }
    return try judge.paths(of: chain.map(\.pointer), servedFacts: facts, host: "t\(i).bench.test", at: Date()) {
        x, depth, source throws(ProbeError) in try factsCache.facts(of: x, depth: depth, source: source)
    }
}
@MainActor func round() throws -> (cpu: Double, paths: Int) {
    let start = cpu()
    var paths = 0
    for i in leaves.indices { paths += try judged(i).byClient.values.reduce(0) { $0 + $1.count } }
    return (cpu() - start, paths)
}
let first = try round()
let again = try round()
let stats = judge.statistics
print("client paths: \(targets) targets (distinct leaves), \(stores.count) clients (\(stores.map { "\($0.data.client.rawValue) \($0.data.roots.count) roots" }.joined(separator: ", ")))")
print(String(format: "first sight: %.1f s CPU, %.0f µs per target, %d paths (%.1f per target)", first.cpu, first.cpu / Double(targets) * 1e6,
             first.paths, Double(first.paths) / Double(targets)))
print(String(format: "again:       %.1f s CPU, %.0f µs per target (remembered)", again.cpu, again.cpu / Double(targets) * 1e6))
print("searches \(stats.searches), from a sibling leaf's paths \(stats.siblings), answered from memory \(stats.reused); resident growth \(Int(residentMB() - rssBefore)) MB")
// SHOW=1: the first target's paths, client by client (what each version range decides).
if ProcessInfo.processInfo.environment["SHOW"] != nil {
    for (client, paths) in try judged(0).byClient {
        for p in paths { print(client, p.versions?.description ?? "-", p.trusted, p.reason ?? "", p.chain.count) }
    }
}
