import PinGuardState
import XCTest
import PinGuardCore

final class RenewalClassifierTests: XCTestCase {
    private struct Case {
        let name: String
        let known: [StoredChain]
        let observed: ServedChain
        var address = "a1"
        let expected: RenewalClassification
    }

    private static let old = testChain(leaf: 10, key: 100, notBefore: 1_000)
    private static let older = testChain(leaf: 9, key: 90, notBefore: 500)
    private static let renewed = testChain(leaf: 11, key: 101, notBefore: 2_000)

    private static let table: [Case] = [
        Case(name: "nothing recorded", known: [], observed: old, expected: .firstSight),
        Case(name: "a new address of a known target", known: [recorded(old, at: "a1")], observed: old, address: "a2",
             expected: .firstSight),
        Case(name: "the same chain again (as after a restart)", known: [recorded(old)], observed: old,
             expected: .unchanged),
        Case(name: "the same leaf with another issuing certificate", known: [recorded(old)],
             observed: testChain(leaf: 10, key: 100, notBefore: 1_000, issuer: 2, issuerKey: 1), expected: .unchanged),
        Case(name: "a new leaf and key from the same issuer", known: [recorded(old)], observed: renewed,
             expected: .renewal(keyReused: false, issuerChanged: false, previous: old)),
        Case(name: "a new leaf keeping the key", known: [recorded(old)],
             observed: testChain(leaf: 11, key: 100, notBefore: 2_000),
             expected: .renewal(keyReused: true, issuerChanged: false, previous: old)),
        Case(name: "a new leaf from an issuer with another key", known: [recorded(old)],
             observed: testChain(leaf: 11, key: 101, notBefore: 2_000, issuer: 2),
             expected: .renewal(keyReused: false, issuerChanged: true, previous: old)),
        Case(name: "a re-issued intermediate with the same key is no issuer change", known: [recorded(old)],
             observed: testChain(leaf: 11, key: 101, notBefore: 2_000, issuer: 2, issuerKey: 1),
             expected: .renewal(keyReused: false, issuerChanged: false, previous: old)),
        Case(name: "a new leaf with the same notBefore", known: [recorded(old)],
             observed: testChain(leaf: 12, key: 102, notBefore: 1_000),
             expected: .renewal(keyReused: false, issuerChanged: false, previous: old)),
        Case(name: "another address already renewed", known: [recorded(old, at: "a1"), recorded(old, at: "a2"),
                                                            recorded(renewed, at: "a1", firstSeen: 200)],
             observed: renewed, address: "a2", expected: .addressCaughtUp),
        Case(name: "back to the newer leaf after a rollback",
             known: [recorded(old, firstSeen: 100, lastSeen: 300), recorded(renewed, firstSeen: 200, lastSeen: 250)],
             observed: renewed, expected: .addressCaughtUp),
        Case(name: "back to an older recorded chain",
             known: [recorded(old, firstSeen: 100, lastSeen: 150), recorded(renewed, firstSeen: 200, lastSeen: 250)],
             observed: old, expected: .rollback(to: old, previous: renewed)),
        Case(name: "an older leaf never recorded", known: [recorded(old)], observed: older,
             expected: .rollback(to: older, previous: old)),
        Case(name: "an older leaf another address serves",
             known: [recorded(older, at: "a2"), recorded(old, at: "a1")], observed: older,
             expected: .rollback(to: older, previous: old)),
        Case(name: "the latest is the one seen last, not the one recorded last",
             known: [recorded(old, firstSeen: 100, lastSeen: 400), recorded(renewed, firstSeen: 200, lastSeen: 210)],
             observed: old, expected: .unchanged),
    ]

    func testEachCaseClassifiesAsExpected() {
        for entry in Self.table {
            let result = RenewalClassifier.classify(entry.observed, at: entry.address, known: entry.known)
            XCTAssertEqual(result, entry.expected, entry.name)
        }
    }

    func testLatestIndexPrefersTheLaterRecordOnATie() {
        let known = [recorded(Self.old, lastSeen: 500), recorded(Self.renewed, lastSeen: 500), recorded(Self.older, at: "a2")]
        XCTAssertEqual(RenewalClassifier.latestIndex(at: "a1", in: known), 1)
        XCTAssertEqual(RenewalClassifier.latestIndex(at: "a2", in: known), 2)
        XCTAssertNil(RenewalClassifier.latestIndex(at: "a3", in: known))
    }

    func testMultiAddressRenewalCountsOnceWhenTheSecondAddressFollows() {
        let store = StateStore.inMemory()
        var results: [RenewalClassification] = []
        for (now, a1, a2) in [(100, Self.old, Self.old), (200, Self.renewed, Self.old), (300, Self.renewed, Self.renewed),
                              (400, Self.renewed, Self.renewed)] as [(Int64, ServedChain, ServedChain)] {
            let round = store.beginRound(now: now)
            results.append(round.observe(target: "t", address: "a1", chain: a1))
            results.append(round.observe(target: "t", address: "a2", chain: a2))
        }
        XCTAssertEqual(results, [.firstSight, .firstSight,
                                 .renewal(keyReused: false, issuerChanged: false, previous: Self.old), .unchanged,
                                 .unchanged, .addressCaughtUp, .unchanged, .unchanged])
        XCTAssertEqual(store.renewalSummary(target: "t"),
                       RenewalSummary(renewals: 1, lastRenewal: 200, lastKeyReused: false, lastIssuerChanged: false))
    }

    func testRollbackThenReturnIsNotASecondRenewal() {
        let store = StateStore.inMemory()
        let chains = [Self.old, Self.renewed, Self.old, Self.renewed]
        let results = chains.enumerated().map { index, chain in
            store.beginRound(now: Int64(100 * (index + 1))).observe(target: "t", address: "a1", chain: chain)
        }
        XCTAssertEqual(results, [.firstSight, .renewal(keyReused: false, issuerChanged: false, previous: Self.old),
                                 .rollback(to: Self.old, previous: Self.renewed), .addressCaughtUp])
        XCTAssertEqual(store.renewalSummary(target: "t")?.renewals, 1)
        XCTAssertEqual(store.latest(target: "t", address: "a1")?.chain, Self.renewed)
    }
}
