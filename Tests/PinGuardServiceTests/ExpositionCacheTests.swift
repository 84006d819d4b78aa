import Foundation
import PinGuardCore
import PinGuardReaders
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// `/metrics` from the cached, per-slice compressed pieces is byte for byte what a whole render of the
/// same results gives, and stays so as results change, targets come and go and settings change.
final class ExpositionCacheTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func chain(_ i: Int, rotated: Bool = false) -> [ChainCertificate] {
        let root = ChainCertificate(depth: 2, subject: "CN=Root", issuer: "CN=Root", serial: "01", notBefore: now.addingTimeInterval(-1e8),
                                    notAfter: now.addingTimeInterval(3e8), spkiSHA256: Base64.encode([UInt8](repeating: 3, count: 32)),
                                    certSHA256: Base64.encode([UInt8](repeating: 4, count: 32)), keyType: "EC-256", isCA: true,
                                    selfIssued: true, source: .store)
        let ca = ChainCertificate(depth: 1, subject: "CN=Intermediate \"1\"", issuer: "CN=Root", serial: "02",
                                  notBefore: now.addingTimeInterval(-1e7), notAfter: now.addingTimeInterval(1e8),
                                  spkiSHA256: Base64.encode([UInt8](repeating: 5, count: 32)),
                                  certSHA256: Base64.encode([UInt8](repeating: 6, count: 32)), keyType: "EC-256", isCA: true, source: .served)
        var key = [UInt8](repeating: rotated ? 9 : 1, count: 32)
        key[0] = UInt8(i % 256); key[1] = UInt8(i / 256)
        let leaf = ChainCertificate(depth: 0, subject: "CN=t\(i).example", issuer: ca.subject, serial: String(i, radix: 16),
                                    notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(86_400 * Double(30 + i % 60)),
                                    spkiSHA256: Base64.encode(key), certSHA256: Base64.encode(key.reversed()), keyType: "EC-256", source: .served)
        return [leaf, ca, root]
    }

    var sets: [PolicySet] {
        let policy = HostPolicy(pins: [Pin(type: .spki, hash: chain(0)[1].spkiSHA256),
                                       Pin(type: .spki, hash: Base64.encode([UInt8](repeating: 7, count: 32)), role: .backup)])
        return [PolicySet(name: "app", environments: ["prod": PolicyEnvironment(rules: [PatternRule(pattern: .anyDepth("example"), policy: policy)])])]
    }

    func config(_ count: Int, certificates: CertificateSeries = .chain) -> ServiceConfig {
        var c = ServiceConfig()
        c.targets = (0..<count).map { Target(host: "t\($0).example", name: "t\($0)") }
        c.certificateSeries = certificates
        return c
    }

    func result(_ i: Int, rotated: Bool = false, failed: Bool = false) -> TargetResult {
        let c = chain(i, rotated: rotated)
        let facts = failed
            ? ProbeFacts(host: "t\(i).example", port: 443, address: "127.0.0.1:443", error: "connection refused", finishedAt: now)
            : ProbeFacts(host: "t\(i).example", port: 443, address: "127.0.0.1:443", duration: 0.01, tlsVersion: "TLSv1.3",
                         servedChain: Array(c.prefix(2)), verifiedChain: c, trusted: true, finishedAt: now)
        return TargetResult.evaluate(facts, target: Target(host: "t\(i).example", name: "t\(i)"), sets: sets, now: now)
    }

    /// The whole render of the store's results with the same service families.
    func expected(_ store: ResultStore, certificates: CertificateSeries = .chain) -> [UInt8] {
        var s = MetricsSnapshot()
        s.results = store.results
        s.certificates = certificates
        s.version = "test"
        return MetricsRenderer.render(s)
    }

    func cached(_ cache: ExpositionCache, gzip: Bool, certificates: CertificateSeries = .chain) -> [UInt8] {
        var s = MetricsSnapshot()
        s.certificates = certificates
        s.version = "test"
        let body = cache.body(service: s, gzip: gzip)
        var bytes: [UInt8] = []
        for part in body.parts {
            switch part {
            case .bytes(let b): bytes += b
            case .inflating(let p): bytes += p.inflated()
            }
        }
        XCTAssertEqual(bytes.count, body.length)
        return bytes
    }

    func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let dir = try TemporaryDirectory.make("pinguard-cache")
        let file = dir.appendingPathComponent("body.gz")
        try Data(bytes).write(to: file)
        let out = try CommandRunner.run("/bin/sh", ["-c", "gzip -dc < \(CommandRunner.quote(file.path))"])
        XCTAssertEqual(out.status, 0, out.stderr)
        return Array(out.stdout.utf8)
    }

    func testCachedExpositionEqualsAWholeRenderAsResultsChange() throws {
        let count = ResultStore.sliceSize * 2 + 300
        let store = ResultStore(config: config(count), sets: sets)
        let cache = ExpositionCache(store: store)
        XCTAssertEqual(cached(cache, gzip: false), expected(store), "no results yet: headers and service families")
        for i in 0..<count where i % 7 != 0 { _ = store.record(result(i), generation: 0, now: now) }
        XCTAssertEqual(cached(cache, gzip: false), expected(store), "targets not probed yet are left out")
        XCTAssertEqual(try gunzip(cached(cache, gzip: true)), expected(store), "gzip -dc of the spliced member")

        let before = store.sliceVersions
        _ = store.record(result(5, rotated: true), generation: 0, now: now)
        _ = store.record(result(count - 1, failed: true), generation: 0, now: now)
        let after = store.sliceVersions
        XCTAssertEqual(zip(before, after).map { $0 != $1 }, [true, false, true], "only the slices of changed results move")
        let text = cached(cache, gzip: false)
        XCTAssertEqual(text, expected(store))
        let rotated = chain(5, rotated: true)[0].spkiSHA256
        XCTAssertTrue(String(decoding: text, as: UTF8.self).contains("target=\"t5\",address=\"127.0.0.1:443\",depth=\"0\",subject=\"CN=t5.example\",issuer=\"CN=Intermediate \\\"1\\\"\",serial=\"5\",spki_sha256=\"\(rotated)\""),
                      "the rotated key is in the cached exposition")
    }

    func testCachedExpositionFollowsAReplacedConfigurationAndCertificateSetting() throws {
        let store = ResultStore(config: config(1500), sets: sets)
        let cache = ExpositionCache(store: store)
        for i in 0..<1500 { _ = store.record(result(i), generation: 0, now: now) }
        XCTAssertEqual(cached(cache, gzip: false), expected(store))
        XCTAssertEqual(cached(cache, gzip: false, certificates: .leaf), expected(store, certificates: .leaf), "metrics.certificates: leaf")

        _ = store.apply(config: config(10), sets: sets, now: now)
        let small = cached(cache, gzip: false)
        XCTAssertEqual(small, expected(store))
        XCTAssertFalse(String(decoding: small, as: UTF8.self).contains("target=\"t10\""), "no series of a removed target survives")
        XCTAssertEqual(try gunzip(cached(cache, gzip: true)), expected(store))
    }

    func testAReloadRejudgesOnlyWhatChangedAndKeepsTheOtherSlices() throws {
        let count = ResultStore.sliceSize * 2 + 10
        let store = ResultStore(config: config(count), sets: sets)
        let cache = ExpositionCache(store: store)
        for i in 0..<count { _ = store.record(result(i), generation: 0, now: now) }
        XCTAssertEqual(cached(cache, gzip: false), expected(store))
        let before = store.sliceVersions
        let judgedAt = store.result(named: "t1")?.evaluations.first?.daysToExpiry

        let later = now.addingTimeInterval(86_400)
        XCTAssertEqual(store.apply(config: config(count), sets: sets, now: later).count, 0, "nothing changed: no events")
        XCTAssertEqual(store.sliceVersions, before, "same targets, same policies: every slice kept")
        XCTAssertEqual(store.result(named: "t1")?.evaluations.first?.daysToExpiry, judgedAt, "kept as judged at the probe")

        var moved = config(count)
        moved.targets[ResultStore.sliceSize + 3].environment = "staging"
        _ = store.apply(config: moved, sets: sets, now: later)
        XCTAssertEqual(zip(before, store.sliceVersions).map { $0 != $1 }, [false, true, false], "only the changed target's slice")
        XCTAssertEqual(store.result(named: "t\(ResultStore.sliceSize + 3)")?.evaluations.isEmpty, true,
                       "judged again: no set covers environment staging")
        XCTAssertNotEqual(store.result(named: "t1")?.evaluations.first?.daysToExpiry, nil)
        XCTAssertEqual(cached(cache, gzip: false), expected(store))

        var rotated = sets
        rotated[0].environments["prod"]?.rules[0].policy.pins.append(Pin(type: .spki, hash: Base64.encode([UInt8](repeating: 8, count: 32)), role: .backup))
        let afterMove = store.sliceVersions
        _ = store.apply(config: moved, sets: rotated, now: later)
        XCTAssertTrue(zip(afterMove, store.sliceVersions).allSatisfy { $0 != $1 }, "new policies: every result judged again")
        XCTAssertNotEqual(store.result(named: "t1")?.evaluations.first?.daysToExpiry, judgedAt, "judged at the reload's time")
        let text = cached(cache, gzip: false)
        XCTAssertEqual(text, expected(store))
        XCTAssertTrue(String(decoding: text, as: UTF8.self).contains(Base64.encode([UInt8](repeating: 8, count: 32))), "the new pin's series")
    }
}
