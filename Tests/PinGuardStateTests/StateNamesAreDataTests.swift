import PinGuardState
import XCTest
import PinGuardCore

/// Target names and addresses are data to the state file, never SQL: a name written as SQL is stored, read back
/// and kept apart from every other target's rows.
final class StateNamesAreDataTests: XCTestCase {
    func testATargetNameWrittenAsSQLIsStoredAndReadBackAsItIs() throws {
        let path = try makeDirectory() + "/state.db"
        let hostile = ["api'); DROP TABLE chains; --", "x\" OR 1=1 --", "t'||(SELECT sqlite_version())||'", "%_\\"]
        let store = try StateStore.open(path: path, readOnly: false)
        let rounds = hostile.enumerated().map { ($0.element, "a'1;--", testChain(leaf: UInt64($0.offset + 10))) }
        try commitRound(store, now: 100, rounds + [("plain", "a1", testChain(leaf: 1))])
        store.close()

        let reopened = try StateStore.open(path: path, readOnly: true)
        XCTAssertEqual(Set(reopened.targetNames), Set(hostile + ["plain"]), "every name read back as written; no table dropped")
        for (i, name) in hostile.enumerated() {
            XCTAssertEqual(reopened.latest(target: name, address: "a'1;--")?.chain.leafSHA256, testDigest(UInt64(i + 10), family: 1), name)
            XCTAssertEqual(reopened.history(target: name).count, 1, name)
        }
        XCTAssertEqual(reopened.history(target: "plain").count, 1, "another target's rows are untouched")
        XCTAssertEqual(reopened.history(target: "%").count, 0, "a LIKE pattern matches no other name")
    }
}
