import PinGuardCore
@testable import PinGuardState
import XCTest

/// Values read back from the shared database are untrusted: bytea text that is not exactly `\x` and pairs of
/// hex digits is refused, not half-decoded; what is written reads back as it was.
final class DatabaseValueTests: XCTestCase {
    func testByteaTextRoundTripsAndAnythingElseIsRefused() {
        let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFE, 0xFF]
        XCTAssertEqual(StateDatabase.hex(bytes), "\\x00017f80feff")
        XCTAssertEqual(StateDatabase.bytes(StateDatabase.hex(bytes)), bytes)
        XCTAssertEqual(StateDatabase.bytes("\\x00FF"), [0, 255])
        XCTAssertEqual(StateDatabase.bytes("\\x"), [])
        for bad in ["\\x0", "00ff", "\\x0g", "x00", "\\\\x00", ""] {
            XCTAssertNil(StateDatabase.bytes(bad), bad)
        }
    }

    func testADigestIsWrittenAsByteaOfItsHex() throws {
        let digest = try XCTUnwrap(ChainDigest(hex: String(repeating: "ab", count: 32)))
        XCTAssertEqual(DatabaseWriter.bytea(digest), "\\x" + String(repeating: "ab", count: 32))
    }
}
