import XCTest
@testable import PinGuardCore

final class IPv6LiteralTests: XCTestCase {
    func testAddressesAndNonAddresses() {
        for good in ["::1", "::", "fe80::1", "2001:db8::8a2e:370:7334", "1:2:3:4:5:6:7:8", "::ffff:192.0.2.1", "64:ff9b::192.0.2.33"] {
            XCTAssertTrue(IPv6Literal.isValid(good), good)
        }
        for bad in ["10.0.0.1:443", "cafe:443", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::1", "::g", "::1.2.3", "::256.1.1.1", ""] {
            XCTAssertFalse(IPv6Literal.isValid(bad), bad)
        }
    }
}
