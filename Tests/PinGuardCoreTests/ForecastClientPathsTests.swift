import Foundation
import PinGuardCore
import PinGuardCoreTestSupport
import XCTest

/// A renewal under the issuer serving today is judged on the path each client builds, version by version, as
/// today's chain is, and one under another issuer on the paths each client builds above that issuer: a root pin
/// that only some versions' paths reach breaks the forecast for those versions, and a leaf issued after a root's
/// distrust date is refused under it (Chrome Root Store's `sct_not_after`).
final class ForecastClientPathsTests: XCTestCase {
    typealias F = ResultFixtures
    /// A newer root (key 4) that the stores of later versions hold above the same intermediate.
    let newRoot = F.newRoot

    /// The next renewal 30 days from now, under the intermediate serving today, with a new key.
    let outlook = RenewalOutlook(nextRenewal: F.day(30), key: .rotate, keyBasis: .declared,
                                 issuers: [IssuerOption(name: "Intermediate", chain: [F.intermediate, F.root])], issuerBasis: .current)

    func rootPinned(_ client: CTClient, versions: String?) -> PolicySet {
        var s = F.set("app", [("*.example.com", HostPolicy(pins: [Pin(type: .ca, hash: F.h(3), scope: .root)]))])
        s.client = client
        s.clientVersions = versions.flatMap(ClientVersions.init)
        return s
    }

    /// Facts whose Android paths end at the old root up to API 33 and at the new root from 34.
    func androidFacts() -> ProbeFacts { F.rootMoveFacts() }

    func forecast(_ facts: ProbeFacts, _ set: PolicySet) throws -> SetForecast {
        try XCTUnwrap(RenewalForecaster.forecast(facts, outlook: outlook, environment: "prod", namedSets: nil, sets: [set]).first)
    }

    func testARootPinReachedOnlyByOlderVersionsBreaksTheRenewalOnTheNewerOnes() throws {
        XCTAssertEqual(try forecast(androidFacts(), rootPinned(.android, versions: "24-33")).rejectRatio, 0,
                       "every version the app runs on anchors at the pinned root")
        let all = try forecast(androidFacts(), rootPinned(.android, versions: nil))
        XCTAssertEqual(all.rejectRatio, 1, "API 34-37 anchor at Root YE, which no pin names")
        XCTAssertEqual(all.uncoveredIssuers, ["Intermediate"])
        XCTAssertEqual(all.rejectingVersions, "Android API 34-37")
        XCTAssertEqual(SituationWords.why(all, outlook, file: ""),
                       "no pin covers the CA's next issuer Intermediate (on Android API 34-37; its other versions accept it)")
        var s = rootPinned(.android, versions: nil)
        s.client = .none
        XCTAssertEqual(try forecast(androidFacts(), s).rejectRatio, 0, "a set without a client is judged on the outlook's one path")
    }

    func testALeafIssuedAfterItsRootsDistrustDateIsRefusedThere() throws {
        var f = F.facts()
        let (leaf, intermediate) = (f.servedChain[0], f.servedChain[1])
        var path = ClientPath(versions: nil, chain: [leaf, intermediate, F.root], trusted: true)
        path.anchorDistrustAfter = F.day(10)
        f.clientPaths = ClientPaths(byClient: [.chrome: [path]])
        let set = rootPinned(.chrome, versions: nil)
        let broken = try forecast(f, set)
        XCTAssertEqual(broken.rejectRatio, 1, "today's leaf predates the distrust date; the next, issued in 30 days, does not")
        XCTAssertNil(broken.rejectingVersions, "the one path holds for every version")
        XCTAssertEqual(broken.breakage, F.day(30))

        f.clientPaths.byClient[.chrome]![0].anchorDistrustAfter = F.day(60)
        XCTAssertEqual(try forecast(f, set).rejectRatio, 0, "a distrust date after the renewal leaves it trusted")

        // Apple, with another path to another anchor, takes that one.
        var apple = ClientPath(versions: nil, chain: [leaf, intermediate, F.root], trusted: true)
        apple.anchorDistrustAfter = F.day(10)
        apple.alternatives = [[leaf, intermediate, newRoot]]
        f.clientPaths = ClientPaths(byClient: [.ios: [apple]])
        var newRootPinned = rootPinned(.ios, versions: nil)
        newRootPinned.environments["prod"]!.rules[0].policy.pins.append(Pin(type: .ca, hash: F.h(4), scope: .root))
        XCTAssertEqual(try forecast(f, newRootPinned).rejectRatio, 0, "the other anchor is pinned too")
        XCTAssertEqual(try forecast(f, rootPinned(.ios, versions: nil)).rejectRatio, 1, "only the distrusted root is pinned")
    }

    func testAnIssuerWithEachClientsPathsAboveItIsJudgedOnThemVersionByVersion() throws {
        // Today every Android version anchors at the pinned root; the CA's next issuer is another intermediate, whose
        // paths end at the pinned root up to API 35 and at the new root from 36.
        var today = F.facts()
        let (leaf, intermediate) = (today.servedChain[0], today.servedChain[1])
        today.clientPaths = ClientPaths(byClient: [.android: [ClientPath(versions: ClientVersions("24-37"), chain: [leaf, intermediate, F.root], trusted: true)]],
                                        inUse: [.android: ClientVersions("24-37")!])
        var other = F.intermediate
        other.spkiSHA256 = F.h(7)
        other.subject = "CN=Other Intermediate"
        other.depth = 0
        func above(_ c: ChainCertificate) -> ChainCertificate {
            var c = c
            c.depth = 1
            return c
        }
        var option = IssuerOption(name: "Other", chain: [other, F.root])
        option.clientPaths = ClientPaths(byClient: [.android: [
            ClientPath(versions: ClientVersions("24-35"), chain: [other, above(F.root)], trusted: true),
            ClientPath(versions: ClientVersions("36-37"), chain: [other, above(F.newRoot)], trusted: true),
        ]], inUse: [.android: ClientVersions("24-37")!])
        option.clientPaths?.versionNames[.android] = "Android API"
        let elsewhere = RenewalOutlook(nextRenewal: F.day(30), key: .rotate, keyBasis: .declared, issuers: [option], issuerBasis: .pool)
        let f = try XCTUnwrap(RenewalForecaster.forecast(today, outlook: elsewhere, environment: "prod", namedSets: nil,
                                                         sets: [rootPinned(.android, versions: nil)]).first)
        XCTAssertEqual(f.rejectRatio, 1, "API 36-37 build their path above the next issuer to the new root, which no pin names")
        XCTAssertEqual(f.rejectingVersions, "Android API 36-37")
        XCTAssertEqual(SituationWords.why(f, elsewhere, file: ""),
                       "no pin covers the CA's next issuer Other (on Android API 36-37; its other versions accept it)")
        let older = try XCTUnwrap(RenewalForecaster.forecast(today, outlook: elsewhere, environment: "prod", namedSets: nil,
                                                             sets: [rootPinned(.android, versions: "24-35")]).first)
        XCTAssertEqual(older.rejectRatio, 0, "the pinned root is reached at depth 2 by every version the app runs on")
    }

    func testAnIssuerTodaysPathsDoNotTakeKeepsTheOutlooksPath() throws {
        var other = F.intermediate
        other.spkiSHA256 = F.h(7)
        other.subject = "CN=Other Intermediate"
        let elsewhere = RenewalOutlook(nextRenewal: F.day(30), key: .rotate, keyBasis: .declared,
                                       issuers: [IssuerOption(name: "Other", chain: [other, F.root])], issuerBasis: .pool)
        let f = try XCTUnwrap(RenewalForecaster.forecast(androidFacts(), outlook: elsewhere, environment: "prod", namedSets: nil,
                                                         sets: [rootPinned(.android, versions: nil)]).first)
        XCTAssertEqual(f.rejectRatio, 0, "judged on its own path, which ends at the pinned root")
    }
}
