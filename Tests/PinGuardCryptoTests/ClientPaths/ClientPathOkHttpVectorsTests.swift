import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// OkHttp's `CertificatePinnerChainValidationTest` as data: the same PKIs made at test time, and the verdict
/// each client reaches on the path it builds. OkHttp checks pins on the chain its cleaner builds from the served
/// certificates and the trust manager's anchors, so a pinned certificate merely present in what the server
/// sends never counts, and a pinned root the server leaves out does. Conscrypt (Android) builds its own path
/// and checks the pins once on it, with the same outcome here.
final class ClientPathOkHttpVectorsTests: XCTestCase {
    static let host = "okhttp.pinguard.test"
    let day = 86_400.0

    func ca(_ name: String, issuer: DemoCertificate?, serial: Int) throws -> DemoCertificate {
        try .issue(commonName: name, dnsName: nil, key: try DemoKey(.p256), issuer: issuer, isCA: true,
                   validFrom: -30 * day, validUntil: 3_000 * day, serial: serial)
    }

    func leaf(issuer: DemoCertificate, serial: Int) throws -> DemoCertificate {
        try .issue(commonName: Self.host, dnsName: Self.host, key: try DemoKey(.p256), issuer: issuer, isCA: false,
                   validFrom: -day, validUntil: 90 * day, serial: serial, extendedKeyUsage: "serverAuth")
    }

    /// A store of `client` (no versions) holding `roots`.
    static func store(_ client: CTClient, _ roots: [DemoCertificate]) throws -> ClientStore {
        let held = try roots.map { r in
            ClientStoreData.Root(der: r.der, certSHA256: try r.facts.certSHA256, subject: try r.facts.subject, versions: nil,
                                 distrustAfter: nil)
        }
        return try ClientStore(ClientStoreData(client: client, versionName: "", source: "test", sourceDate: Date(), refreshDays: 180,
                                               versionsKnown: nil, versionsInUse: nil, roots: held))
    }

    /// The path `client` builds for `served` with `roots` in its store.
    func path(_ client: CTClient, roots: [DemoCertificate], served: [DemoCertificate]) throws -> ClientPath {
        let judge = ClientPathJudge(stores: [try Self.store(client, roots)])
        let paths = try GenerationMovePKI.paths(judge, served, host: Self.host)
        return try XCTUnwrap(paths.byClient[client]?.first, "\(client) builds no path")
    }

    /// Whether a pin on `pinned`'s key matches `path` as the client checks it: on a trusted path only.
    func pinMatches(_ pinned: DemoCertificate, _ path: ClientPath) throws -> Bool {
        let key = try pinned.facts.spkiSHA256
        return path.trusted && path.chain.contains { $0.spkiSHA256 == key }
    }

    func testAPinnedRootTheServerLeavesOutIsTakenFromTheStore() throws {
        let root = try ca("root", issuer: nil, serial: 1)
        let intermediate = try ca("intermediate_ca", issuer: root, serial: 2)
        let certificate = try leaf(issuer: intermediate, serial: 3)
        for client in [CTClient.jvm, .android] {
            let p = try path(client, roots: [root], served: [certificate, intermediate])
            XCTAssertEqual(p.chain.map(\.source), [.served, .served, .store], "\(client)")
            XCTAssertTrue(try pinMatches(root, p), "\(client): the pinned root completes the path: accepted")
            XCTAssertTrue(try pinMatches(intermediate, p), "\(client): the pinned intermediate is on the path: accepted")
        }
    }

    func testAnUnrelatedPinnedLeafInTheServedChainDoesNotMatch() throws {
        let root = try ca("root", issuer: nil, serial: 1)
        let good = try leaf(issuer: try ca("good_intermediate_ca", issuer: root, serial: 2), serial: 3)
        let compromised = try ca("bad_intermediate_ca", issuer: root, serial: 4)
        let rogue = try leaf(issuer: compromised, serial: 5)
        for client in [CTClient.jvm, .android] {
            let p = try path(client, roots: [root], served: [rogue, compromised, good])
            XCTAssertTrue(p.trusted, "\(client): the rogue chain validates (its CA is trusted)")
            XCTAssertEqual(GenerationMovePKI.names(p), [Self.host, "bad_intermediate_ca", "root"], "\(client)")
            XCTAssertFalse(try pinMatches(good, p), "\(client): the pinned good leaf is only served, not on the path: rejected")
        }
    }

    func testAnUnrelatedPinnedIntermediateOfTheSameNameDoesNotMatch() throws {
        let root = try ca("root", issuer: nil, serial: 1)
        let compromisedRoot = try ca("compromised_root", issuer: nil, serial: 2)
        let good = try ca("intermediate_ca", issuer: root, serial: 3)
        let compromised = try ca("intermediate_ca", issuer: compromisedRoot, serial: 4)
        let rogue = try leaf(issuer: compromised, serial: 5)
        for client in [CTClient.jvm, .android] {
            let p = try path(client, roots: [root, compromisedRoot], served: [rogue, good, compromised])
            // OpenJDK: the handshake succeeds and the pinner fails; Android: the handshake fails first. Either way
            // no pin on the good intermediate is satisfied.
            XCTAssertFalse(try pinMatches(good, p), "\(client): \(GenerationMovePKI.names(p)) trusted \(p.trusted)")
        }
        let jvm = try path(.jvm, roots: [root, compromisedRoot], served: [rogue, good, compromised])
        XCTAssertEqual(GenerationMovePKI.names(jvm), [Self.host, "intermediate_ca", "compromised_root"],
                       "OkHttp's cleaner skips the same-named certificate whose signature does not verify")
        XCTAssertEqual(jvm.chain.dropFirst().first?.certSHA256, try compromised.facts.certSHA256)
    }
}

/// The recipes of `Vectors/ClientPaths/okhttp-recipes.json` (OkHttp's own test, written down as the certificates it
/// makes and the outcome it asserts per platform) made at test time and judged: the JVM client (OkHttp's cleaner)
/// wherever the test asserts the default JVM's outcome, Android where its comment does.
final class OkHttpRecipeVectorsTests: XCTestCase {
    struct Recipe {
        let name: String
        let certificates: [[String: Any]]
        let served, trusted, pinned: [String]
        /// Expected outcome ("success" or "failure") per client judged.
        let expected: [CTClient: String]
    }

    static func recipes() throws -> [Recipe] {
        let url = ClientPathVectorsTests.folder.appendingPathComponent("okhttp-recipes.json")
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let tests = try XCTUnwrap(root["tests"] as? [[String: Any]])
        return try tests.map { t in
            let expected = try XCTUnwrap(t["expected"] as? [String: [String: Any]])
            var outcomes: [CTClient: String] = [:]
            outcomes[.jvm] = (expected["jvm_default"] ?? expected["all_jvm_platforms"])?["outcome"] as? String
            outcomes[.android] = expected["android"]?["outcome"] as? String
            return Recipe(name: try XCTUnwrap(t["name"] as? String), certificates: try XCTUnwrap(t["certificates"] as? [[String: Any]]),
                          served: try XCTUnwrap(t["served"] as? [String]), trusted: try XCTUnwrap(t["trusted"] as? [String]),
                          pinned: try XCTUnwrap(t["pins"] as? [[String: String]]).compactMap { $0["pin_of"] }, expected: outcomes)
        }
    }

    /// The recipe's certificates, in its order: HeldCertificate's defaults (P-256, a day's validity, the subject
    /// as given and nothing else); `reuse:X` takes X's key pair.
    static func make(_ recipe: Recipe) throws -> [String: DemoCertificate] {
        var made: [String: DemoCertificate] = [:]
        for c in recipe.certificates {
            let name = try XCTUnwrap(c["name"] as? String)
            let subject = try XCTUnwrap(c["subject"] as? String)
            let keySpec = c["key"] as? String ?? "fresh"
            let key = keySpec.hasPrefix("reuse:") ? try XCTUnwrap(made[String(keySpec.dropFirst(6))]).key : try DemoKey(.p256)
            let issuedBy = c["issued_by"] as? String ?? "self"
            let issuer = issuedBy == "self" ? nil : try XCTUnwrap(made[issuedBy], "\(recipe.name): \(issuedBy) comes first")
            let isCA = c["ca"] as? Bool ?? false
            made[name] = try .issue(commonName: String(subject.dropFirst(3)), dnsName: c["san_dns"] as? String, key: key, issuer: issuer,
                                    isCA: isCA, validFrom: -60, validUntil: 86_400, serial: c["serial"] as? Int ?? 1, organization: nil,
                                    pathLength: isCA ? c["max_intermediates"] as? Int : nil)
        }
        return made
    }

    func testEachRecipeReachesTheOutcomeOkHttpsTestAssertsForEachClient() throws {
        let recipes = try Self.recipes()
        XCTAssertEqual(recipes.count, 7)
        var judged = 0
        for recipe in recipes {
            let made = try Self.make(recipe)
            let pick = { (names: [String]) throws -> [DemoCertificate] in try names.map { try XCTUnwrap(made[$0], "\(recipe.name): \($0)") } }
            let served = try pick(recipe.served)
            let pins = Set(try pick(recipe.pinned).map { try $0.facts.spkiSHA256 })
            for (client, outcome) in recipe.expected.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let store = try ClientPathOkHttpVectorsTests.store(client, try pick(recipe.trusted))
                // The test's hostname verifier accepts any name: no name check.
                let paths = try GenerationMovePKI.paths(ClientPathJudge(stores: [store]), served, host: nil)
                let path = try XCTUnwrap(paths.byClient[client]?.first, "\(recipe.name): \(client) builds no path")
                let accepted = path.trusted && path.chain.contains { pins.contains($0.spkiSHA256) }
                XCTAssertEqual(accepted ? "success" : "failure", outcome,
                               "\(recipe.name), \(client): path \(GenerationMovePKI.names(path)), trusted \(path.trusted), \(path.reason ?? "")")
                judged += 1
            }
        }
        XCTAssertEqual(judged, 8, "seven JVM outcomes and one Android outcome are asserted by the source")
    }
}
