import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// Each client builds its own path from one served chain, version range by version range of its store, in
/// its own order of candidate issuers, and checks what it builds.
final class ClientPathBuildingTests: XCTestCase {
    func testAndroidPathShortensAsItsStoreGainsEachNewerRoot() throws {
        let pki = try GenerationMovePKI()
        let store = try pki.store(.android, known: "24-37", x1: "21-", x2: "30-", ye: "36-")
        let paths = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [store])).byClient[.android])
        XCTAssertEqual(paths.map { $0.versions?.description }, ["24-29", "30-35", "36-37"])
        XCTAssertEqual(paths.map(\.trusted), [true, true, true])
        XCTAssertEqual(paths.map(GenerationMovePKI.names), [
            ["app.pinguard.test", "Test YE1", "Test Root YE", "Test Root X2", "Test Root X1"],
            ["app.pinguard.test", "Test YE1", "Test Root YE", "Test Root X2"],
            ["app.pinguard.test", "Test YE1", "Test Root YE"],
        ])
        XCTAssertEqual(paths.map { $0.chain.last?.source }, [.store, .store, .store])
    }

    func testChromeAndAppleTakeTheTrustedIssuerFirstAndAppleKeepsTheOtherValidPathsForItsPins() throws {
        let pki = try GenerationMovePKI()
        let chrome = try pki.store(.chrome, known: "120-140", x1: "105-", x2: "105-", ye: "105-")
        let apple = try pki.store(.ios, known: "15-26", x1: "10-", x2: "10-", ye: "10-")
        let paths = try pki.paths(ClientPathJudge(stores: [chrome, apple]))
        XCTAssertEqual(paths.byClient[.chrome]?.map(GenerationMovePKI.names), [["app.pinguard.test", "Test YE1", "Test Root YE"]])
        XCTAssertEqual(paths.byClient[.chrome]?.first?.alternatives.count, 0, "Chrome stops at the first valid path")
        let ios = try XCTUnwrap(paths.byClient[.ios]?.first)
        XCTAssertEqual(GenerationMovePKI.names(ios), ["app.pinguard.test", "Test YE1", "Test Root YE"])
        XCTAssertEqual(ios.alternatives.map { $0.last?.subject.contains("Test Root X") }, [true, true],
                       "the paths through the served cross-signs to X2 and to X1 validate too")
    }

    func testOkHttpCleanerStopsAtTheFirstTrustedSelfSignedIssuer() throws {
        let pki = try GenerationMovePKI()
        let jvm = try pki.store(.jvm, known: nil, x1: "0-", x2: nil, ye: nil)
        let path = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [jvm])).byClient[.jvm]?.first)
        XCTAssertNil(path.versions)
        XCTAssertTrue(path.trusted)
        XCTAssertEqual(GenerationMovePKI.names(path), ["app.pinguard.test", "Test YE1", "Test Root YE", "Test Root X2", "Test Root X1"])
    }

    func testAnExpiredCrossSignFailsTheVersionsThatNeedItAndIsNamedAsAHazard() throws {
        let pki = try GenerationMovePKI(crossSignExpired: true)
        let store = try pki.store(.android, known: "24-37", x1: "21-", x2: "30-", ye: nil)
        let paths = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [store])).byClient[.android])
        XCTAssertEqual(paths.map { $0.versions?.description }, ["24-29", "30-37"])
        XCTAssertFalse(paths[0].trusted, "Conscrypt skips an expired served certificate as a candidate issuer")
        XCTAssertTrue(paths[0].hazards.contains { $0.contains("expired") && $0.contains("Test Root X2") }, "\(paths[0].hazards)")
        XCTAssertTrue(paths[1].trusted, "an anchor above the expired cross-sign is taken first")
        let chrome = try pki.store(.chrome, known: "120-140", x1: "105-", x2: nil, ye: nil)
        let chromePath = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [chrome])).byClient[.chrome]?.first)
        XCTAssertTrue(chromePath.reason?.contains("expired") ?? false, "Chrome tries the expired cross-sign and fails: \(chromePath.reason ?? "")")
        XCTAssertTrue(paths[1].hazards.contains { $0.contains("expired") && $0.contains("not on the path") }, "\(paths[1].hazards)")
    }

    func testAChainEndingAtASelfSignedRootTheStoreLacksIsAHazardAndUntrusted() throws {
        let pki = try GenerationMovePKI()
        let store = try pki.store(.android, known: "24-37", x1: "21-", x2: nil, ye: nil)
        let paths = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [store]), [pki.leaf, pki.intermediate, pki.ye]).byClient[.android])
        XCTAssertEqual(paths.count, 1)
        XCTAssertFalse(paths[0].trusted)
        XCTAssertTrue(paths[0].hazards.contains { $0.contains("self-signed root") && $0.contains("Test Root YE") }, "\(paths[0].hazards)")
    }

    func testANameOnlyInTheCommonNameOrAnotherHostIsRejectedOnEveryPath() throws {
        let pki = try GenerationMovePKI()
        let store = try pki.store(.android, known: "24-37", x1: "21-", x2: "30-", ye: "36-")
        let paths = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [store]), host: "other.pinguard.test").byClient[.android])
        XCTAssertEqual(paths.map(\.trusted), [false, false, false])
        XCTAssertTrue(paths.allSatisfy { $0.reason?.contains("other.pinguard.test") ?? false })
    }

    func testChromeDistrustAfterRejectsLeavesIssuedLater() throws {
        let pki = try GenerationMovePKI()
        let yeSubject = try pki.ye.facts.subject
        let store = try pki.store(.chrome, known: "130-140", x1: nil, x2: nil, ye: "130-",
                                  distrustAfter: [yeSubject: Date(timeIntervalSinceNow: -30 * 86_400)])
        let path = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [store])).byClient[.chrome]?.first)
        XCTAssertFalse(path.trusted)
        XCTAssertTrue(path.reason?.contains("distrusted") ?? false, path.reason ?? "")
    }

    func testADistrustDateAfterTheLeafIsCarriedOnTheTrustedPathForTheForecast() throws {
        let pki = try GenerationMovePKI()
        let yeSubject = try pki.ye.facts.subject
        let later = Date(timeIntervalSinceNow: 30 * 86_400)
        let store = try pki.store(.chrome, known: "130-140", x1: nil, x2: nil, ye: "130-", distrustAfter: [yeSubject: later])
        let path = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [store])).byClient[.chrome]?.first)
        XCTAssertTrue(path.trusted, path.reason ?? "")
        XCTAssertEqual(path.anchorDistrustAfter, later)
        let plainStore = try pki.store(.chrome, known: "130-140", x1: nil, x2: nil, ye: "130-")
        let plain = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [plainStore])).byClient[.chrome]?.first)
        XCTAssertNil(plain.anchorDistrustAfter)

        // A cut-off announced among the store's changes ahead counts too, when it reaches the path's versions.
        let announced = Date(timeIntervalSinceNow: 90 * 86_400)
        var data = plainStore.data
        let ye = try pki.ye.facts.certSHA256
        data.changes = [.init(certSHA256: ye, subject: yeSubject, kind: .distrusted, versions: ClientVersions("100-120"),
                              date: Date(timeIntervalSinceNow: 10 * 86_400), source: "test"),
                        .init(certSHA256: ye, subject: yeSubject, kind: .distrusted, versions: nil, date: announced, source: "test")]
        let ahead = try XCTUnwrap(pki.paths(ClientPathJudge(stores: [try ClientStore(data)])).byClient[.chrome]?.first)
        XCTAssertTrue(ahead.trusted, "a leaf issued before the cut-off stays trusted: \(ahead.reason ?? "")")
        XCTAssertEqual(ahead.anchorDistrustAfter, announced, "the earlier cut-off reaches only versions 100-120, none of 130-140")
    }

    func testAChainServedAgainIsNotSearchedAgain() throws {
        let pki = try GenerationMovePKI()
        let judge = ClientPathJudge(stores: [try pki.store(.android, known: "24-37", x1: "21-", x2: "30-", ye: "36-")])
        for _ in 0..<5 { _ = try pki.paths(judge) }
        XCTAssertEqual(judge.statistics.searches, 1)
        XCTAssertEqual(judge.statistics.reused, 4)
    }
}

/// A leaf served with the same certificates above it as one already judged takes its paths when it passes the
/// checks that read the leaf, and is searched in full when it does not.
final class SiblingLeafTests: XCTestCase {
    func testASiblingLeafTakesThePathsAndAFailingOneIsSearchedInFull() throws {
        let pki = try GenerationMovePKI()
        let judge = ClientPathJudge(stores: [try pki.store(.android, known: "24-37", x1: "21-", x2: "30-", ye: "36-"),
                                             try pki.store(.ios, known: "15-26", x1: "10-", x2: "10-", ye: "20-")])
        func leaf(_ serial: Int, until: Double, eku: String = "serverAuth") throws -> DemoCertificate {
            try DemoCertificate.issue(commonName: GenerationMovePKI.host, dnsName: GenerationMovePKI.host, key: try DemoKey(.p256),
                                      issuer: pki.intermediate, isCA: false, validFrom: -86_400, validUntil: until, serial: serial,
                                      extendedKeyUsage: eku)
        }
        let first = try pki.paths(judge)
        let sibling = try pki.paths(judge, [try leaf(20, until: 60 * 86_400)] + pki.served.dropFirst())
        XCTAssertEqual(judge.statistics.siblings, 1)
        XCTAssertEqual(sibling.byClient[.android]?.map(\.trusted), first.byClient[.android]?.map(\.trusted))
        XCTAssertEqual(sibling.byClient[.ios]?.map(GenerationMovePKI.names), first.byClient[.ios]?.map(GenerationMovePKI.names))

        let expired = try pki.paths(judge, [try leaf(21, until: -3_600)] + pki.served.dropFirst())
        XCTAssertEqual(expired.byClient[.android]?.map(\.trusted), [false, false, false])
        XCTAssertTrue(expired.byClient[.android]?.first?.reason?.contains("expired") ?? false, "\(expired.byClient)")
        let clientOnly = try pki.paths(judge, [try leaf(22, until: 60 * 86_400, eku: "clientAuth")] + pki.served.dropFirst())
        XCTAssertEqual(clientOnly.byClient[.ios]?.map(\.trusted), [false, false])
        XCTAssertEqual(judge.statistics.searches, 3, "the failing siblings were searched in full")
        XCTAssertEqual(judge.statistics.siblings, 1)
    }
}
