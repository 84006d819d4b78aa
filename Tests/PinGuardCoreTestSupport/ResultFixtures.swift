import Foundation
import PinGuardCore

/// In-memory targets, chains, policies and results for the renderer, event detector and service tests.
public enum ResultFixtures {
    /// The time every fixture is judged at.
    public static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// `n` days from `now`.
    public static func day(_ n: Double) -> Date { now.addingTimeInterval(n * 86_400) }
    /// A distinct base64 SHA-256 per tag.
    public static func h(_ tag: UInt8) -> String { Base64.encode([UInt8](repeating: tag, count: 32)) }

    /// A certificate at `depth` with key `h(spki)` and hash `h(cert)`, issued by the next depth, valid from 30 days
    /// ago for `notAfter` days.
    public static func cert(_ depth: Int, spki: UInt8, cert: UInt8, notAfter: Double, subject: String? = nil,
                            source: CertificateSource = .served, selfIssued: Bool = false) -> ChainCertificate {
        ChainCertificate(depth: depth, subject: subject ?? "CN=cert \(depth)", issuer: "CN=cert \(depth + 1)",
                         serial: String(format: "%02X", cert), notBefore: day(-30), notAfter: day(notAfter),
                         spkiSHA256: h(spki), certSHA256: h(cert), isCA: depth > 0, selfIssued: selfIssued, source: source)
    }

    /// The served intermediate of every fixture chain (key `h(2)`, expiring in 400 days).
    public static let intermediate = cert(1, spki: 2, cert: 12, notAfter: 400, subject: "CN=Intermediate")
    /// The root a trusted probe adds from the store (key `h(3)`).
    public static let root = cert(2, spki: 3, cert: 13, notAfter: 3000, subject: "CN=Root", source: .store, selfIssued: true)

    /// A probe of `host`: leaf (key `leafKey`, certificate `leafCert`, expiring in `leafDays`) + intermediate
    /// served; with trust, the root added from the store.
    public static func facts(host: String = "api.example.com", port: Int = 443, trusted: Bool = true, error: String? = nil,
                             leafKey: UInt8 = 1, leafCert: UInt8 = 11, leafDays: Double = 90, leafSubject: String? = nil) -> ProbeFacts {
        let leaf = cert(0, spki: leafKey, cert: leafCert, notAfter: leafDays, subject: leafSubject ?? "CN=\(host)")
        return ProbeFacts(host: host, port: port, address: "127.0.0.1:\(port)", error: error, duration: 0.25,
                          tlsVersion: error == nil ? "TLSv1.3" : nil,
                          servedChain: error == nil ? [leaf, intermediate] : [],
                          verifiedChain: trusted && error == nil ? [leaf, intermediate, root] : [], trusted: trusted && error == nil,
                          trustError: trusted ? nil : "unable to get local issuer certificate", finishedAt: now)
    }

    /// A root (key `h(4)`) that the stores of newer client versions hold above the fixture intermediate.
    public static let newRoot = cert(2, spki: 4, cert: 14, notAfter: 5000, subject: "CN=Root YE", source: .store, selfIssued: true)

    /// `facts()` whose Android paths end at `root` up to API level 33 and at `newRoot` from 34 (in use: 24-37).
    public static func rootMoveFacts() -> ProbeFacts {
        var f = facts()
        let (leaf, intermediate) = (f.servedChain[0], f.servedChain[1])
        f.clientPaths = ClientPaths(byClient: [.android: [
            ClientPath(versions: ClientVersions("24-33"), chain: [leaf, intermediate, root], trusted: true),
            ClientPath(versions: ClientVersions("34-37"), chain: [leaf, intermediate, newRoot], trusted: true),
        ]], inUse: [.android: ClientVersions("24-37")!])
        f.clientPaths.versionNames[.android] = "Android API"
        return f
    }

    /// A policy set `name` with one environment of `(pattern, policy)` rules.
    public static func set(_ name: String, environment: String = "prod", _ rules: [(String, HostPolicy)]) -> PolicySet {
        PolicySet(name: name, environments: [environment: PolicyEnvironment(rules: rules.map {
            PatternRule(pattern: try! HostPattern.parse($0.0), policy: $0.1)
        })])
    }

    /// A target `name` of `host:port`.
    public static func target(_ name: String, host: String = "api.example.com", port: Int = 443, environment: String = "prod",
                              sets: [String]? = nil) -> Target {
        Target(host: host, port: port, environment: environment, name: name, policySets: sets)
    }

    /// `facts` of `target` judged against `sets` at `now`.
    public static func result(_ target: Target, _ facts: ProbeFacts, _ sets: [PolicySet]) -> TargetResult {
        TargetResult.evaluate(facts, target: target, sets: sets, now: now)
    }

    /// Pins the fixture leaf's key.
    public static let leafPin = Pin(type: .spki, hash: h(1), role: .primary, scope: .leaf)
    /// A backup pin of a key no fixture chain has.
    public static let reservePin = Pin(type: .spki, hash: h(9), role: .backup)
    /// Pins the fixture intermediate as a CA.
    public static let caPin = Pin(type: .ca, hash: h(2), role: .primary, scope: .any)
}

public extension ResultFixtures {
    /// A probe of `facts` served at `address` (`ip:port`).
    static func at(_ address: String, _ facts: ProbeFacts) -> ProbeFacts {
        var f = facts
        f.address = address
        return f
    }

    /// A result of a name resolved to the addresses of `nodes`, each probed with its facts.
    static func result(_ target: Target, nodes: [ProbeFacts], skipped: Int = 0, _ sets: [PolicySet]) -> TargetResult {
        let probe = TargetProbe(resolution: AddressResolution(addresses: nodes.compactMap(\.address), skipped: skipped),
                                nodes: nodes, host: target.host, port: target.port, at: now)
        return TargetResult.evaluate(probe, target: target, sets: sets, now: now)
    }
}
