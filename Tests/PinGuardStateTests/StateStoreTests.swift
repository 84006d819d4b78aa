import PinGuardState
import XCTest
import PinGuardCore

final class StateStoreTests: XCTestCase {
    private let first = testChain(leaf: 1, key: 1, notBefore: 1_000)
    private let second = testChain(leaf: 2, key: 1, notBefore: 2_000)
    private let third = testChain(leaf: 3, key: 3, notBefore: 3_000, issuer: 2)

    func testReopenKeepsChainsSummariesAndKeyAges() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t1", "a1", first), ("t1", "a2", first), ("t2", "a1", third)])
        try commitRound(store, now: 200, [("t1", "a1", second), ("t1", "a2", second)])
        let before = (store.history(target: "t1"), store.renewalSummary(target: "t1"), store.latest(target: "t2", address: "a1"))
        store.close()

        let reopened = try StateStore.open(path: path, readOnly: false)
        XCTAssertEqual(reopened.targetNames, ["t1", "t2"])
        XCTAssertEqual(reopened.history(target: "t1"), before.0)
        XCTAssertEqual(reopened.renewalSummary(target: "t1"), before.1)
        XCTAssertEqual(reopened.latest(target: "t2", address: "a1"), before.2)
        XCTAssertEqual(reopened.keyFirstSeen(target: "t1", address: "a2"), 100)
    }

    func testRestartSeesTheSameChainAsUnchangedAndKeepsTheCount() throws {
        let path = try makeDirectory() + "/state.db"
        var store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t", "a1", first)])
        try commitRound(store, now: 200, [("t", "a1", second)])
        store.close()

        store = try StateStore.open(path: path, readOnly: false)
        XCTAssertEqual(store.beginRound(now: 300).observe(target: "t", address: "a1", chain: second), .unchanged)
        XCTAssertEqual(store.renewalSummary(target: "t"),
                       RenewalSummary(renewals: 1, lastRenewal: 200, lastKeyReused: true, lastIssuerChanged: false))
    }

    func testCommittedRoundsSurviveAnUncleanStop() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t1", "a1", first)])
        try commitRound(store, now: 200, [("t1", "a1", second)])
        let copy = try makeDirectory() + "/state.db"
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }

        XCTAssertEqual(try StateStore.open(path: copy, readOnly: true).latest(target: "t1", address: "a1")?.chain, second)
        let recovered = try StateStore.open(path: copy, readOnly: false)
        XCTAssertEqual(recovered.renewalSummary(target: "t1")?.renewals, 1)
        XCTAssertEqual(recovered.history(target: "t1"), store.history(target: "t1"))
    }

    func testSteadyRoundWritesNothingUntilLastSeenIsDue() throws {
        let store = try StateStore.open(path: try makeDirectory() + "/state.db", readOnly: false, lastSeenGranularity: 3_600)
        let round = [("t1", "a1", first), ("t2", "a1", third)]
        XCTAssertEqual(try commitRound(store, now: 1_000, round),
                       StateCommit(targetsWritten: 2, chainsInserted: 2))
        XCTAssertTrue(try commitRound(store, now: 1_300, round).isEmpty)
        XCTAssertEqual(store.latest(target: "t1", address: "a1")?.lastSeen, 1_300, "memory is current")
        XCTAssertTrue(try commitRound(store, now: 4_599, round).isEmpty)
        XCTAssertEqual(try commitRound(store, now: 4_600, round), StateCommit(chainsTouched: 2))
        XCTAssertFalse(store.hasPendingChanges)
    }

    func testSwitchingBackToAKnownChainIsWrittenAtOnce() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t", "a1", first)])
        try commitRound(store, now: 200, [("t", "a1", second)])
        XCTAssertEqual(try commitRound(store, now: 300, [("t", "a1", first)]), StateCommit(chainsTouched: 1))
        store.close()
        XCTAssertEqual(try StateStore.open(path: path, readOnly: true).latest(target: "t", address: "a1")?.chain, first)
    }

    func testEachAddressKeepsItsSixteenMostRecentChains() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        for n in 1...20 {
            let chain = testChain(leaf: UInt64(n), notBefore: Int64(n) * 1_000)
            try commitRound(store, now: Int64(n) * 100, [("t", "a1", chain), ("t", "a2", first)])
        }
        let leaves = { (store: StateStore) in
            store.history(target: "t").filter { $0.address == "a1" }.map(\.chain.leafSerial)
        }
        XCTAssertEqual(leaves(store), (5...20).map { String($0, radix: 16, uppercase: true) })
        XCTAssertEqual(store.history(target: "t").filter { $0.address == "a2" }.count, 1)
        XCTAssertEqual(store.renewalSummary(target: "t")?.renewals, 19, "pruning keeps the count")
        store.close()
        XCTAssertEqual(leaves(try StateStore.open(path: path, readOnly: true)), leaves(store))
    }

    func testPruneDeletesTargetsUnconfiguredLongerThanTheRetention() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        let day: Int64 = 86_400
        try commitRound(store, now: 0, [("kept", "a1", first), ("dropped", "a1", first), ("recent", "a1", first)])
        XCTAssertEqual(store.prune(configuredTargets: ["kept", "recent"], now: 20 * day), [])
        try commitRound(store, now: 20 * day, [])
        XCTAssertEqual(store.prune(configuredTargets: ["kept"], now: 31 * day), ["dropped"])
        XCTAssertEqual(store.prune(configuredTargets: ["kept"], now: 50 * day + 1), ["recent"])
        XCTAssertEqual(try commitRound(store, now: 50 * day + 1, []).targetsDeleted, 2)
        store.close()

        let reopened = try StateStore.open(path: path, readOnly: false)
        XCTAssertEqual(reopened.targetNames, ["kept"])
        XCTAssertEqual(reopened.history(target: "dropped"), [])
        XCTAssertEqual(reopened.prune(configuredTargets: [], now: 80 * day + 1), [], "refreshed at day 50 + 1 s")
        XCTAssertEqual(reopened.prune(configuredTargets: [], now: 80 * day + 2), ["kept"])
    }

    func testHistoryIsOldestFirstWithRenewalsMarked() throws {
        let store = StateStore.inMemory()
        try commitRound(store, now: 100, [("t", "a1", first), ("t", "a2", first)])
        try commitRound(store, now: 200, [("t", "a1", second), ("t", "a2", first)])
        try commitRound(store, now: 300, [("t", "a1", second), ("t", "a2", second)])
        try commitRound(store, now: 400, [("t", "a1", third), ("t", "a2", second)])
        try commitRound(store, now: 500, [("t", "a1", first), ("t", "a2", third)])
        let history = store.history(target: "t")
        XCTAssertEqual(history.map(\.firstSeen), [100, 100, 200, 300, 400, 500])
        XCTAssertEqual(history.map(\.address), ["a1", "a2", "a1", "a2", "a1", "a2"])
        XCTAssertEqual(history.map(\.arrival), [.firstSight, .firstSight, .renewal(keyReused: true, issuerChanged: false),
                                               .addressCaughtUp, .renewal(keyReused: false, issuerChanged: true),
                                               .addressCaughtUp])
        XCTAssertEqual(store.latest(target: "t", address: "a1")?.chain, first, "rolled back")
        XCTAssertEqual(store.renewalSummary(target: "t"),
                       RenewalSummary(renewals: 2, lastRenewal: 400, lastKeyReused: false, lastIssuerChanged: true))
    }

    func testKeyFirstSeenFollowsAKeptKeyAndRestartsOnRotation() throws {
        let store = StateStore.inMemory()
        try commitRound(store, now: 100, [("t", "a1", first), ("t", "a2", third)])
        XCTAssertEqual(store.keyFirstSeen(target: "t", address: "a1"), 100)
        try commitRound(store, now: 200, [("t", "a1", second)])
        XCTAssertEqual(store.keyFirstSeen(target: "t", address: "a1"), 100, "renewed with the same key")
        try commitRound(store, now: 300, [("t", "a1", testChain(leaf: 4, key: 4, notBefore: 4_000))])
        XCTAssertEqual(store.keyFirstSeen(target: "t", address: "a1"), 300, "rotated")
        XCTAssertEqual(store.keyFirstSeen(target: "t", address: "a2"), 100)
        XCTAssertNil(store.keyFirstSeen(target: "t", address: "a3"))
    }

    func testAKeysFirstSightIsItsLeafsNotBeforeSoItsAgeDoesNotJumpAtARenewalThatKeepsIt() throws {
        let store = StateStore.inMemory()
        // Issued at 5,000, first probed at 5,010: the key dates from its leaf's notBefore, not from the probe.
        try commitRound(store, now: 5_010, [("t", "a1", testChain(leaf: 7, key: 7, notBefore: 5_000))])
        XCTAssertEqual(store.keyFirstSeen(target: "t", address: "a1"), 5_000)
        try commitRound(store, now: 9_010, [("t", "a1", testChain(leaf: 8, key: 7, notBefore: 9_000))])
        XCTAssertEqual(store.keyFirstSeen(target: "t", address: "a1"), 5_000, "kept across the renewal: still the first leaf's notBefore")
    }

    func testSameLeafWithAnotherIssuerIsRecordedButNotARenewal() throws {
        let store = StateStore.inMemory()
        let crossSigned = testChain(leaf: 1, key: 1, notBefore: 1_000, issuer: 7, issuerKey: 1)
        try commitRound(store, now: 100, [("t", "a1", first)])
        XCTAssertEqual(store.beginRound(now: 200).observe(target: "t", address: "a1", chain: crossSigned), .unchanged)
        XCTAssertEqual(store.history(target: "t").map(\.arrival), [.firstSight, .sameLeaf])
        XCTAssertEqual(store.renewalSummary(target: "t")?.renewals, 0)
    }

    func testDigestsReadAndWriteBase64AndHex() {
        let digest = testDigest(42, family: 7)
        XCTAssertEqual(ChainDigest(base64: digest.base64), digest)
        XCTAssertEqual(ChainDigest(hex: digest.hex), digest)
        XCTAssertEqual(ChainDigest(hex: digest.hex.uppercased()), digest)
        XCTAssertEqual(ChainDigest(bytes: [UInt8](repeating: 0xff, count: 32))?.base64,
                       "//////////////////////////////////////////8=")
        XCTAssertEqual(ChainDigest(bytes: Array(0..<32))?.hex,
                       "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
        XCTAssertNil(ChainDigest(base64: "AAAA"))
        XCTAssertNil(ChainDigest(base64: "//////////////////////////////////////////9="), "stray bits")
        XCTAssertNil(ChainDigest(hex: String(repeating: "g", count: 64)))
        XCTAssertNil(ChainDigest(bytes: [1, 2, 3]))
    }
}
