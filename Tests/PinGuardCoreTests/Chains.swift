import Foundation
@testable import PinGuardCore

/// In-memory chains for the evaluation tables: leaf (expiring in 40 days) ← intermediate ← root, each with
/// distinct hashes, on the shared fixtures' clock.
enum Chains {
    static let now = ResultFixtures.now
    static func day(_ n: Double) -> Date { ResultFixtures.day(n) }
    static func h(_ tag: UInt8) -> String { ResultFixtures.h(tag) }

    static func cert(_ depth: Int, spki: UInt8, cert: UInt8, notAfter: Double, selfIssued: Bool = false,
                     source: CertificateSource = .served) -> ChainCertificate {
        ChainCertificate(depth: depth, subject: "CN=\(depth)", issuer: "CN=\(depth + 1)", notBefore: day(-30),
                         notAfter: day(notAfter), spkiSHA256: h(spki), certSHA256: h(cert), selfIssued: selfIssued,
                         source: source)
    }
    static let leaf = cert(0, spki: 1, cert: 11, notAfter: 40)
    static let inter = cert(1, spki: 2, cert: 12, notAfter: 400)
    static let root = cert(2, spki: 3, cert: 13, notAfter: 3000, selfIssued: true, source: .store)

    static func facts(trusted: Bool = true, error: String? = nil) -> ProbeFacts {
        ProbeFacts(host: "api.example.com", port: 443, error: error, servedChain: error == nil ? [leaf, inter] : [],
                   verifiedChain: trusted && error == nil ? [leaf, inter, root] : [], trusted: trusted,
                   trustError: trusted ? nil : "certificate has expired", finishedAt: now)
    }

    static func set(_ policy: HostPolicy, pattern: String = "api.example.com") -> PolicySet {
        ResultFixtures.set("app", [(pattern, policy)])
    }
}
