import Foundation
import XCTest
@testable import PinGuardCore

/// The whole /metrics exposition of a snapshot that exercises every family, compared byte for byte with
/// `Tests/Fixtures/metrics/rich-snapshot.prom`: a change to the output (ordering, escaping, number format, HELP
/// text) shows up as a diff of the golden file rather than passing unnoticed.
final class MetricsExpositionGoldenTests: XCTestCase {
    typealias F = ResultFixtures

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/metrics/rich-snapshot.prom")

    /// Every family has at least one series: a name with several addresses (one stale, one down, some beyond
    /// max_addresses), trusted and untrusted chains, a failed probe, several policy sets
    /// and environments, pins of every scope, an expiring pin set, lint findings, fractional values and label
    /// values that need escaping.
    /// A target whose iOS app checks CT and rejects the chain: one embedded SCT from a listed log, one with a
    /// bad signature, one in the TLS extension from a log no list has; the cipher and group negotiated.
    static func ctResult() -> TargetResult {
        var facts = F.facts(host: "ct.example.com")
        facts.tlsCipher = "TLS_AES_128_GCM_SHA256"
        facts.tlsGroup = "secp384r1"
        facts.ct = CTObservation(collected: true, scts: [CTFixtures.sct(1), CTFixtures.sct(3, .embedded, .invalid), CTFixtures.sct(9, .tls, .unknownLog)])
        facts = CTSettings(lists: CTFixtures.lists(), collect: true).judged(facts, now: F.now)
        var ios = F.set("ios-app", [("ct.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
        ios.client = .ios
        return F.result(F.target("ct", host: "ct.example.com"), facts, [ios])
    }

    static func richSnapshot() -> MetricsSnapshot {
        let intermediateKey = Pin(type: .spki, hash: F.h(2), role: .backup, scope: .intermediate)
        let rootCert = Pin(type: .certificate, hash: F.h(13), role: .backup, scope: .root)
        let app = F.set("app", [
            ("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin, intermediateKey, rootCert, F.leafPin], expires: F.day(200))),
            ("**.example.com", HostPolicy(pins: [F.caPin])),
            ("permissive.example.com", HostPolicy(pins: [F.reservePin], failStrategy: .permissive)),
            ("pool.example.com", HostPolicy(pins: [F.leafPin, F.reservePin])),
        ])
        let staging = F.set("app-staging", environment: "staging", [("**.example.com", HostPolicy(pins: [F.leafPin]))])
        let quoted = "t\"quoted\\\nname"
        var facts = F.facts(host: "slow.example.com", leafKey: 4, leafCert: 14, leafDays: 12.5)
        facts.duration = 1.0 / 3.0
        facts.finishedAt = F.now.addingTimeInterval(0.125)
        // The server asked for a client certificate and got the configured one (mTLS).
        facts.clientAuth = ClientAuthFacts(requested: true, presented: true, certificateSubject: "CN=probe",
                                           certificateNotAfter: F.day(40))
        // A name with five addresses, three probed (max_addresses): one serves a stale leaf key, one is down.
        var stale = F.facts(host: "pool.example.com", leafKey: 7, leafCert: 17, leafDays: 5)
        stale.address = "127.0.0.3:443"
        var poolDown = F.facts(host: "pool.example.com", error: "connect to 127.0.0.4:443: Connection refused")
        poolDown.address = "127.0.0.4:443"
        var fresh = F.facts(host: "pool.example.com")
        fresh.address = "127.0.0.2:443"
        let pool = TargetProbe(resolution: AddressResolution(addresses: ["127.0.0.2:443", "127.0.0.3:443", "127.0.0.4:443",
                                                                         "127.0.0.5:443", "[::1]:443"], skipped: 2),
                               nodes: [fresh, stale, poolDown], host: "pool.example.com", port: 443, at: F.now)
        var poolTarget = F.target("pool", host: "pool.example.com")
        poolTarget.labels = ["team": "payments", "region": "eu-west"]
        var s = MetricsSnapshot()
        s.results = [
            TargetResult.evaluate(pool, target: poolTarget, sets: [app], now: F.now),
            F.result(F.target("api"), F.facts(), [app, staging]),
            F.result(F.target("untrusted", host: "other.example.com"), F.facts(host: "other.example.com", trusted: false), [app]),
            F.result(F.target("down", host: "down.example.com"), F.facts(host: "down.example.com", error: "timeout"), [app]),
            F.result(F.target("permissive", host: "permissive.example.com"), F.facts(host: "permissive.example.com"), [app]),
            F.result(F.target("slow", host: "slow.example.com"), facts, [app]),
            F.result(F.target("stage", host: "s.example.com", environment: "staging"), F.facts(host: "s.example.com"), [app, staging]),
            F.result(F.target(quoted, host: "q.example.com"), F.facts(host: "q.example.com", leafSubject: "CN=a \"b\"\\c\nd"), []),
            ctResult(),
        ]
        s.ctLogListTimestamps = [.apple: F.day(-20), .chrome: F.day(-10)]
        // The next renewal of "api": a new key from one of two issuers; the app pins the leaf key and a CA key.
        let ca = F.facts().evaluatedChain[1]
        var other = ca
        other.spkiSHA256 = F.h(42)
        var outlook = RenewalOutlook(nextRenewal: F.day(60), key: .rotate, keyBasis: .declared,
                                     issuers: [IssuerOption(name: "R11", chain: [ca]), IssuerOption(name: "R13", chain: [other])],
                                     issuerBasis: .pool)
        // The CA's renewal window (ACME Renewal Information) gives the date.
        outlook.window = RenewalWindow(start: F.day(60), end: F.day(62))
        outlook.whenBasis = .ari
        s.results[1].forecast(with: outlook, sets: [app, staging])
        // CRLs of "api": the leaf listed as not revoked, the intermediate revoked by the root's list; a third list failed.
        s.results[1].nodes[0].facts.revocation = [
            CertificateRevocation(depth: 0, url: "http://ca.example/int.crl", state: .notRevoked(nextUpdate: F.day(5))),
            CertificateRevocation(depth: 1, url: "http://ca.example/root.crl", state: .revoked(at: F.day(-1), reason: .keyCompromise)),
        ]
        s.crls = [CRLStatus(url: "http://ca.example/int.crl", nextUpdate: F.day(5), lastFetchSucceeded: true),
                  CRLStatus(url: "http://ca.example/root.crl", nextUpdate: F.day(20), lastFetchSucceeded: true),
                  CRLStatus(url: "http://ca.example/bad.crl", nextUpdate: nil, lastFetchSucceeded: false, lastFailure: .badSignature)]
        // Signed pin bundles: one verified, one whose signature fails (clients keep the previously verified pins).
        let signed = PolicyBundle(name: "remote-ios", environment: "prod", file: "/etc/pinguard/remote-ios.json",
                                  hmacSecrets: ["key-v1": "/etc/pinguard/key-v1"])
        let forged = PolicyBundle(name: "remote-android", environment: "prod", file: "/etc/pinguard/remote-android.json",
                                  ecdsaPublicKeys: ["pins-2026": "/etc/pinguard/pins-2026.pem"])
        s.bundles = [
            PolicyBundleStatus(bundle: signed, state: .valid, scheme: .hmacSHA256(secretID: "key-v1"), kept: .bundle,
                               policySet: app, lastVerified: app),
            PolicyBundleStatus(bundle: forged, state: .invalidSignature, error: "the ECDSA P-256 signature does not verify",
                               scheme: .ecdsaP256(keyID: "pins-2026"), kept: .previousVerified, policySet: app, lastVerified: app),
        ]
        // A staged renewal on disk that the app accepts, and a file that could not be read.
        let staged = FileTarget(path: "/etc/pinguard/staged/*.pem", host: "api.example.com")
        s.files = [
            TargetResult.evaluate(F.facts(leafDays: 120), target: staged.target(file: "/etc/pinguard/staged/api.pem"), sets: [app], now: F.now),
            TargetResult.evaluate(ProbeFacts(host: "api.example.com", port: 443, error: "no certificate", finishedAt: F.now),
                                  target: staged.target(file: "/etc/pinguard/staged/empty.pem"), sets: [app], now: F.now),
        ]
        s.lintFindings = [LintCount(policySet: "app", severity: "warning", count: 2),
                          LintCount(policySet: "app-staging", severity: "error", count: 1)]
        s.version = "1.2.3"
        s.openSSLVersion = "OpenSSL 3.0.13 30 Jan 2024"
        s.lastReloadSuccessful = false
        s.lastReloadSuccess = F.now
        s.targets = 9
        s.probesTotal = 123_456
        s.probeFailuresTotal = 17
        s.journalFailuresTotal = 3
        s.roundDuration = 2.75
        s.roundTimestamp = F.day(1)
        s.roundLateness = 12.5
        s.shard = TargetShard(index: 1, total: 3)
        s.roundInterval = 300
        var p = ProcessStats()
        p.cpuSeconds = 81.25
        p.openFDs = 42
        p.maxFDs = 524_288
        p.virtualMemoryBytes = 1_234_567_168
        p.residentMemoryBytes = 87_654_400
        p.startTime = 1_800_000_000
        p.threads = 37
        s.process = p
        s.memory.writable = true
        s.memory.targets = [
            TargetMemoryFacts(target: "api", renewals: RenewalSummary(renewals: 3, lastRenewal: 1_799_000_000, lastKeyReused: true,
                                                                      lastIssuerChanged: true),
                              keyFirstSeen: [AddressKeyAge(address: "192.0.2.1:443", since: 1_790_000_000)]),
            TargetMemoryFacts(target: "new", renewals: RenewalSummary(), keyFirstSeen: [AddressKeyAge(address: "[2001:db8::1]:443", since: 1_799_500_000)]),
        ]
        return s
    }

    func testRichSnapshotRendersTheGoldenExposition() throws {
        let actual = MetricsRenderer.render(Self.richSnapshot())
        let expected = try? Data(contentsOf: Self.golden)
        if expected.map([UInt8].init) != actual {
            // Left next to the build for `diff`; copy it over the golden file when the change is intended.
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("rich-snapshot.actual.prom")
            try Data(actual).write(to: out)
            XCTFail("exposition differs from \(Self.golden.path); actual output: \(out.path)")
        }
        XCTAssertEqual(MetricsRenderer.renderChunks(Self.richSnapshot()).flatMap { $0 }, actual, "chunks concatenate to render()")
    }
}
