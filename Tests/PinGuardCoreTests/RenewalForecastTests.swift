import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardTestSupport

/// The forecast of the next renewal as a table: which key, which issuers, and what each pinned client does.
final class RenewalForecastTests: XCTestCase {
    typealias C = Chains

    /// An issuing intermediate with key `spki`, above it the fixture root.
    static func issuer(_ name: String, spki: UInt8) -> IssuerOption {
        var i = C.cert(1, spki: spki, cert: spki &+ 100, notAfter: 900)
        i.subject = "CN=\(name)"
        return IssuerOption(name: name, chain: [i, C.root])
    }

    /// The five-intermediate pool the served intermediate (spki 2) belongs to.
    static let pool = [issuer("R10", spki: 2), issuer("R11", spki: 30), issuer("R12", spki: 31), issuer("R13", spki: 32), issuer("R14", spki: 33)]

    func forecast(_ pins: [Pin], key: RenewalOutlook.Key, issuers: [IssuerOption] = [issuer("R10", spki: 2)],
                  staged: ChainCertificate? = nil) -> SetForecast? {
        let outlook = RenewalOutlook(nextRenewal: C.day(20), key: key, keyBasis: .declared, stagedLeaf: staged,
                                     issuers: issuers, issuerBasis: .pool)
        return RenewalForecaster.forecast(C.facts(), outlook: outlook, environment: "prod", namedSets: nil,
                                          sets: [C.set(HostPolicy(pins: pins))]).first
    }

    func testALeafKeyPinSurvivesAReusedKeyAndBreaksOnANewOne() throws {
        let pins = [Pin(hash: C.h(1), scope: .leaf)]
        XCTAssertEqual(try XCTUnwrap(forecast(pins, key: .reuse)).rejectRatio, 0)
        XCTAssertNil(try XCTUnwrap(forecast(pins, key: .reuse)).breakage, "no breakage date when every renewal is accepted")
        let rotated = try XCTUnwrap(forecast(pins, key: .rotate))
        XCTAssertEqual(rotated.rejectRatio, 1)
        XCTAssertEqual(rotated.breakage, C.day(20))
        XCTAssertTrue(rotated.keyUnpinned)
        XCTAssertEqual(try XCTUnwrap(forecast(pins, key: .unknown)).rejectRatio, 1, "an unknown key is judged as a new one")
    }

    func testAStagedBackupKeyIsTheNextKey() throws {
        var staged = C.leaf
        staged.spkiSHA256 = C.h(9)
        let pins = [Pin(hash: C.h(1), scope: .leaf), Pin(hash: C.h(9), role: .backup, scope: .leaf)]
        XCTAssertEqual(try XCTUnwrap(forecast(pins, key: .rotate, staged: staged)).rejectRatio, 0)
        XCTAssertEqual(try XCTUnwrap(forecast([Pin(hash: C.h(1), scope: .leaf)], key: .rotate, staged: staged)).rejectRatio, 1)
    }

    func testAnIntermediatePinCoversOnlyItsShareOfThePool() throws {
        let r10Only = try XCTUnwrap(forecast([Pin(hash: C.h(2), scope: .intermediate)], key: .rotate, issuers: Self.pool))
        XCTAssertEqual(r10Only.rejectRatio, 0.8, accuracy: 1e-9)
        XCTAssertEqual(r10Only.uncoveredIssuers, ["R11", "R12", "R13", "R14"])
        let rootPin = try XCTUnwrap(forecast([Pin(hash: C.h(3), scope: .root)], key: .rotate, issuers: Self.pool))
        XCTAssertEqual(rootPin.rejectRatio, 0, "a root every member chains to covers the pool")
    }

    func testTheNextRenewalIsBeforeOrAThirdOfTheLifetime() {
        var leaf = C.leaf
        leaf.notBefore = C.day(-60)
        leaf.notAfter = C.day(30)
        XCTAssertEqual(RenewalForecaster.nextRenewal(of: leaf, before: nil), C.day(0), "90 days: renewed 30 days before notAfter")
        XCTAssertEqual(RenewalForecaster.nextRenewal(of: leaf, before: 7 * 86_400), C.day(23))
    }

    func testTheOutlookTakesTheFirstBasisThatApplies() throws {
        let chain = C.facts().evaluatedChain
        let none = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: RenewalSettings(), staged: nil, observed: nil,
                                                             pools: [:], catalog: .empty))
        XCTAssertEqual(none.key, .unknown)
        XCTAssertEqual(none.keyBasis, .unknown)
        XCTAssertEqual(none.issuerBasis, .current)
        XCTAssertEqual(none.issuers.map(\.name), ["1"])
        let observed = ObservedRenewals(lastKeyReused: true, issuers: [Self.issuer("R10", spki: 2), Self.issuer("R11", spki: 30)])
        let o = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: RenewalSettings(), staged: nil, observed: observed,
                                                          pools: [:], catalog: .empty))
        XCTAssertEqual([o.key.rawValue, o.keyBasis.rawValue, o.issuerBasis.rawValue], ["reuse", "observed", "observed"])
        let declared = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: RenewalSettings(key: .rotate, issuers: "private"),
                                                                 staged: nil, observed: observed, pools: ["private": Self.pool],
                                                                 catalog: .empty))
        XCTAssertEqual([declared.key.rawValue, declared.keyBasis.rawValue, declared.issuerBasis.rawValue], ["rotate", "declared", "pool"])
        XCTAssertEqual(declared.issuers.count, 5)
        var newer = C.leaf
        newer.notBefore = C.day(1)
        let staged = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: RenewalSettings(key: .rotate), staged: [newer, C.inter],
                                                               observed: observed, pools: [:], catalog: .empty))
        XCTAssertEqual([staged.key.rawValue, staged.keyBasis.rawValue, staged.issuerBasis.rawValue], ["reuse", "staged", "staged"])
        let older = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: RenewalSettings(), staged: [C.leaf, C.inter],
                                                              observed: nil, pools: [:], catalog: .empty))
        XCTAssertEqual(older.keyBasis, .unknown, "a staged chain no newer than the served one is not the next one")
    }
}

/// The bundled catalog: real Let's Encrypt certificates, hashed from the CA's published PEM files.
final class IssuerCatalogTests: XCTestCase {
    static func bundled() throws -> IssuerCatalog {
        let file = Repository.root.appendingPathComponent("Sources/PinGuardConfig/Resources/issuer_catalog.json").path
        return try IssuerCatalogReader.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
    }

    func testLetsEncryptIntermediatesAreHashedFromTheirPublishedCertificates() throws {
        let c = try Self.bundled()
        let r10 = try XCTUnwrap(c.pools.flatMap(\.issuers).first { $0.name == "R10" })
        XCTAssertEqual(r10.spkiSHA256, "K7rZOrXHknnsEhUH8nLL4MZkejquUuIvOIr6tCa0rbo=")
        XCTAssertEqual(r10.chain.first?.certSHA256, "nXw/GqatKy7A1c8eJG+NmubLyf0HVa03u5dLHy+2A/M=")
        XCTAssertEqual(r10.chain.last.map { ServedChain.commonName($0.subject) }, "ISRG Root X1")
        XCTAssertEqual(c.pool(holding: r10.spkiSHA256)?.pool.name, "letsencrypt-rsa")
        XCTAssertFalse(c.generated.isEmpty)
    }

    func testARenewalAfterARetiredIntermediateComesFromTheOperatorsActiveOnesOfTheSameKeyFamily() throws {
        let c = try Self.bundled()
        let all = c.pools.flatMap(\.issuers)
        let r10 = try XCTUnwrap(all.first { $0.name == "R10" })
        let e5 = try XCTUnwrap(all.first { $0.name == "E5" })
        let afterR10 = try XCTUnwrap(c.nextIssuers(after: r10.spkiSHA256, leafKeyType: "RSA-2048")).map(\.name)
        let afterE5 = try XCTUnwrap(c.nextIssuers(after: e5.spkiSHA256, leafKeyType: "EC-256")).map(\.name)
        XCTAssertFalse(afterR10.isEmpty)
        XCTAssertTrue(afterR10.allSatisfy { $0.hasPrefix("YR") }, "\(afterR10)")
        XCTAssertTrue(afterE5.allSatisfy { $0.hasPrefix("YE") }, "\(afterE5)")
        XCTAssertNil(c.nextIssuers(after: Chains.h(77), leafKeyType: "RSA-2048"), "an issuer the catalog does not hold")
    }

    func testAnIntermediateIsFoundInThePoolsInForceAfterThePoolsAreReplaced() throws {
        var c = try Self.bundled()
        let r10 = try XCTUnwrap(c.pools.flatMap(\.issuers).first { $0.name == "R10" })
        c.pools = [IssuerCatalog.Pool(name: "private", operatorName: "Example", issuers: [r10])]
        XCTAssertEqual(c.pool(holding: r10.spkiSHA256)?.pool.name, "private")
        c.pools = []
        XCTAssertNil(c.pool(holding: r10.spkiSHA256))
    }

    func testTheCommonNameIsTakenFromEveryWayOpenSSLPrintsANameElseTheWholeName() {
        XCTAssertEqual(ServedChain.commonName("CN=R11, O=Let's Encrypt, C=US"), "R11")
        XCTAssertEqual(ServedChain.commonName("C=US, O=Let's Encrypt, CN=E5"), "E5")
        XCTAssertEqual(ServedChain.commonName("/C=US/O=Example/CN=Example CA 1"), "Example CA 1")
        XCTAssertEqual(ServedChain.commonName("C=US,O=Example,CN=Example, Inc. CA"), "Example")
        XCTAssertEqual(ServedChain.commonName("O=Example,  CN=Spaced CA  "), "Spaced CA")
        XCTAssertEqual(ServedChain.commonName("CN=Test YE2,O=pinguard demo"), "Test YE2", "pinguard's own form of a name")
        XCTAssertEqual(ServedChain.commonName("CN=Alone"), "Alone")
        XCTAssertEqual(ServedChain.commonName("O=No Common Name, C=US"), "O=No Common Name, C=US")
        XCTAssertEqual(ServedChain.commonName(""), "")
    }
}

/// The real catalog in the linter and the forecast: a policy pinning Let's Encrypt's R10 alone.
final class IssuerPoolLintTests: XCTestCase {
    func r10Policy(extra: [Pin] = []) throws -> PolicySet {
        let r10 = try XCTUnwrap(try IssuerCatalogTests.bundled().pools.flatMap(\.issuers).first { $0.name == "R10" })
        return Chains.set(HostPolicy(pins: [Pin(hash: r10.spkiSHA256, scope: .intermediate)] + extra))
    }

    func testAnR10OnlyPolicyIsFlaggedRetiredAndNotCoveringThePool() throws {
        let catalog = try IssuerCatalogTests.bundled()
        let findings = PolicyLinter.lint([try r10Policy()], now: Chains.now, publicSuffixes: PublicSuffixList(text: "com\n"), catalog: catalog)
        let retired = try XCTUnwrap(findings.first { $0.rule == .retiredIssuer })
        XCTAssertEqual(retired.severity, .error)
        XCTAssertTrue(retired.message.hasPrefix("pins Let's Encrypt R10, an intermediate Let's Encrypt no longer issues from"), retired.message)
        let pool = try XCTUnwrap(findings.first { $0.rule == .issuerPoolCoverage })
        XCTAssertTrue(pool.message.contains("pins Let's Encrypt R10 only; Let's Encrypt issues from YR1, YR2: 2 of 2 renewals break this pin"),
                      pool.message)
        XCTAssertTrue(PolicyLinter.lint([try r10Policy()], now: Chains.now, publicSuffixes: PublicSuffixList(text: "com\n"))
            .allSatisfy { $0.rule != .issuerPoolCoverage && $0.rule != .retiredIssuer }, "without a catalog nothing is known")
    }

    func testARootEveryIssuerChainsToCoversThePool() throws {
        let catalog = try IssuerCatalogTests.bundled()
        let x1 = try XCTUnwrap(catalog.pools.flatMap(\.issuers).first { $0.name == "R10" }?.chain.last)
        let findings = PolicyLinter.lint([try r10Policy(extra: [Pin(hash: x1.spkiSHA256, role: .backup, scope: .root)])], now: Chains.now,
                                         publicSuffixes: PublicSuffixList(text: "com\n"), catalog: catalog)
        XCTAssertNil(findings.first { $0.rule == .issuerPoolCoverage }, "ISRG Root X1 is on every YR chain: \(findings.map(\.message))")
        XCTAssertNotNil(findings.first { $0.rule == .retiredIssuer })
    }

    func testTheForecastOfAnR10ChainNamesTheIssuersNoPinCovers() throws {
        let catalog = try IssuerCatalogTests.bundled()
        let r10 = try XCTUnwrap(catalog.pools.flatMap(\.issuers).first { $0.name == "R10" })
        var leaf = Chains.leaf
        leaf.keyType = "RSA-2048"
        let chain = [leaf] + r10.chain.enumerated().map { i, c in var c = c; c.depth = i + 1; return c }
        let facts = ProbeFacts(host: "api.example.com", port: 443, servedChain: chain, verifiedChain: chain, trusted: true, finishedAt: Chains.now)
        let outlook = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: RenewalSettings(key: .reuse), staged: nil,
                                                                observed: nil, pools: [:], catalog: catalog))
        XCTAssertEqual(outlook.issuerBasis, .catalog)
        XCTAssertEqual(outlook.issuers.map(\.name), ["YR1", "YR2"])
        let r10Only = try XCTUnwrap(RenewalForecaster.forecast(facts, outlook: outlook, environment: "prod", namedSets: nil,
                                                               sets: [try r10Policy()]).first)
        XCTAssertEqual(r10Only.rejectRatio, 1)
        XCTAssertEqual(r10Only.uncoveredIssuers, ["YR1", "YR2"])
        let withRoot = try XCTUnwrap(RenewalForecaster.forecast(facts, outlook: outlook, environment: "prod", namedSets: nil, sets: [
            try r10Policy(extra: [Pin(hash: try XCTUnwrap(r10.chain.last).spkiSHA256, role: .backup, scope: .root)])]).first)
        XCTAssertEqual(withRoot.rejectRatio, 0, "ISRG Root X1 anchors the YR chains too")
    }
}
