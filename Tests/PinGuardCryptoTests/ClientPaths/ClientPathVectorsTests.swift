import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardTestSupport
import XCTest

/// Public path-building vectors (BoringSSL's path builder tests, Go's verify tests; Vectors/ClientPaths/README.md):
/// pinguard's Chrome path reaches the verdict, and the path, that the source asserts.
final class ClientPathVectorsTests: XCTestCase {
    static let folder = Repository.root.appendingPathComponent("Tests/PinGuardCryptoTests/Vectors/ClientPaths")

    /// One case, as far as this test reads it.
    struct Case {
        let name: String
        let object: [String: Any]
        var served: [String] { object["served"] as? [String] ?? [] }
        var roots: [String] { object["roots"] as? [String] ?? [] }
        var host: String? { object["host"] as? String }
        var time: Date { ISO8601DateFormatter().date(from: object["time"] as? String ?? "") ?? Date() }
        /// What the case expects of Chrome's path builder: its own `chrome` expectation, or Go's where the case
        /// says Chrome agrees.
        var expected: [String: Any]? {
            let e = object["expected"] as? [String: Any]
            if let chrome = e?["chrome"] as? [String: Any] { return chrome }
            return object["chrome_should_agree"] as? Bool == true ? e?["go"] as? [String: Any] : nil
        }
        /// The builder's iteration and depth limits (0: none), as pinguard's limits.
        var limits: PathLimits {
            let b = object["builder"] as? [String: Any] ?? [:]
            let iterations = b["iteration_limit"] as? Int ?? 20, depth = b["depth_limit"] as? Int ?? 0
            return PathLimits(iterations: iterations == 0 ? 1 << 20 : iterations, pathLength: depth == 0 ? 64 : depth)
        }

        /// Why pinguard cannot run the case as the source does; nil when it can.
        var notRunnable: String? {
            if expected == nil { return "no expectation for Chrome (the source's client differs)" }
            if object["store_unspecified"] != nil { return "needs trust-unspecified store entries" }
            if let usages = object["key_usages"] as? [String], usages != ["ServerAuth"] { return "asks for a key usage other than serverAuth" }
            guard let b = object["builder"] as? [String: Any] else { return nil }
            // Synchronous sources are read in the order they were added, which the served order follows; a
            // collection of stores is read in its order, which the roots' order follows.
            let sources = b["issuer_sources"] as? [[String: Any]] ?? []
            if sources.contains(where: { $0["kind"] as? String != "sync" }) {
                return "needs an asynchronous issuer source that answers by name (pinguard's only one is caIssuers downloads)"
            }
            if !sources.isEmpty, sources.flatMap({ $0["served"] as? [Int] ?? [] }) != Array(1..<served.count) {
                return "its issuer sources are not in the served order"
            }
            if let stores = b["trust_store_collection"] as? [[Int]], stores.flatMap({ $0 }) != Array(0..<roots.count) {
                return "its trust stores are not in the roots' order"
            }
            return nil
        }
    }

    static func cases() throws -> [Case] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") && $0 != "okhttp-recipes.json" }
        return try files.sorted().flatMap { file -> [Case] in
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]], file)
            return list.map { Case(name: $0["name"] as? String ?? file, object: $0) }
        }
    }

    func testChromePathsAgreeWithThePublicVectors() throws {
        var ran = 0, skipped: [String] = [], mismatches: [String] = []
        for c in try Self.cases() {
            let target = try Self.caTargetOfAnyPurpose(c)
            if let why = c.notRunnable ?? (target == .anchorTwin ? Self.anchorTwinReason : nil) {
                skipped.append("\(c.name): \(why)")
                continue
            }
            ran += 1
            if let mismatch = try check(c, issuerTarget: target != nil) { mismatches.append("\(c.name): \(mismatch)") }
        }
        print("client path vectors: \(ran) run, \(skipped.count) not run:\n  " + skipped.joined(separator: "\n  "))
        XCTAssertGreaterThanOrEqual(ran, 71, "too few vectors could run")
        XCTAssertEqual(mismatches, [], "\(mismatches.count) of \(ran) vectors disagree")
    }

    /// What differs between the case's expectation and pinguard's Chrome path; nil when they agree.
    func check(_ c: Case, issuerTarget: Bool = false) throws -> String? {
        let served = try c.served.map(Self.parse), roots = try c.roots.map(Self.parse)
        let distrusted = try (c.object["distrusted"] as? [String] ?? []).map(Self.parse)
        defer { (served + roots + distrusted).forEach { X509_free($0) } }
        let store = try ClientStore(ClientStoreData(
            client: .chrome, versionName: "Chrome", source: c.name, sourceDate: c.time, refreshDays: 1, versionsKnown: nil,
            versionsInUse: nil, roots: try (roots + distrusted).enumerated().map { i, x in
                let der = try CertificateReader.derBytes(x)
                var root = ClientStoreData.Root(der: der, certSHA256: CertificateReader.sha256Base64(der[...]), subject: c.name, versions: nil)
                root.distrusted = i >= roots.count
                return root
            }, publicRoots: false))
        let facts = try served.enumerated().map { i, x in try CertificateReader.facts(of: x, depth: i, source: .served) }
        let paths = try ClientPathJudge(stores: [store], limits: c.limits).paths(of: served, servedFacts: facts, host: c.host, at: c.time,
                                                                                 issuerTarget: issuerTarget) {
            x, d, s throws(ProbeError) in try CertificateReader.facts(of: x, depth: d, source: s)
        }
        let path = try XCTUnwrap(paths.byClient[.chrome]?.first)
        let expected = c.expected ?? [:]
        let verdict = path.trusted ? "accept" : "reject"
        if verdict != expected["verdict"] as? String {
            return "expected \(expected["verdict"] ?? "?"), pinguard \(verdict) (\(path.reason ?? "no reason"))"
        }
        guard path.trusted, let want = expected["path"] as? [Any] else { return nil }
        let wanted = want.map { element -> String in
            if let i = element as? Int { return facts[i].certSHA256 }
            let r = Int((element as? String ?? "").split(separator: ":").last ?? "") ?? -1
            return r >= 0 && r < store.data.roots.count ? store.data.roots[r].certSHA256 : "?"
        }
        return path.chain.map(\.certSHA256) == wanted ? nil : "the path differs: \(path.chain.map(\.subject))"
    }

    /// A target that is a certificate authority checked for any purpose, as BoringSSL's path builder tests check
    /// them.
    enum CATarget { case issued, anchorTwin }

    /// Whether the case's target is a certificate authority checked for any purpose (nil: a TLS server's leaf).
    /// pinguard judges such a target as it judges an issuer above a leaf to come (`PathCheck+Issuer`): checked as
    /// the certificate authority it is, `serverAuth` allowed.
    static func caTargetOfAnyPurpose(_ c: Case) throws -> CATarget? {
        guard (c.object["builder"] as? [String: Any])?["key_purpose"] as? String == "ANY_EKU", let first = c.served.first else { return nil }
        let leaf = try parse(first)
        defer { X509_free(leaf) }
        guard X509_check_ca(leaf) != 0 else { return nil }
        guard X509_check_issued(leaf, leaf) == X509_V_OK else { return .issued }
        // Self-signed with the name and key of a root that is another certificate.
        let roots = try c.roots.map(parse)
        defer { roots.forEach { X509_free($0) } }
        let twin = roots.contains { r in
            X509_cmp(r, leaf) != 0 && X509_NAME_cmp(X509_get_subject_name(r), X509_get_subject_name(leaf)) == 0
                && EVP_PKEY_eq(X509_get0_pubkey(r), X509_get0_pubkey(leaf)) == 1
        }
        return twin ? .anchorTwin : .issued
    }

    /// Why a self-signed certificate authority with a root's name and key, another certificate, cannot run as the target.
    static let anchorTwinReason = "the target is a self-signed CA certificate with an anchor's name and key, which BoringSSL "
        + "takes as issued by that anchor; OpenSSL's verification, which pinguard's check of a path uses, stops at a self-signed "
        + "target that is not itself in the store"

    static func parse(_ pem: String) throws -> OpaquePointer {
        let list = try CertificateFile.parse(Array(pem.utf8), name: "vector")
        list.dropFirst().forEach { X509_free($0) }
        return try XCTUnwrap(list.first)
    }
}
