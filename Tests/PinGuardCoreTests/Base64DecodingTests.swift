import XCTest
import PinGuardCore

/// `Base64.decode` accepts only padded, canonical standard base64.
final class Base64DecodingTests: XCTestCase {
    func testOnlyPaddedCanonicalStandardBase64IsDecoded() {
        XCTAssertEqual(Base64.decode("AAEC/w=="), [0, 1, 2, 255])
        XCTAssertEqual(Base64.decode("+/+/"), [0xFB, 0xFF, 0xBF])
        for text in ["", "AAEC/w", "AAEC_w==", "AAEC /w=", "AAEC\r\n/w==", "AAEC/x==", "AAÉC/w==", "AAE\u{301}C/w=", "ＡＡＥＣ"] {
            XCTAssertNil(Base64.decode(text), text)
        }
    }
}
