import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// The signed payload and blob readers of policy bundles (docs/reference.md, Signed policy bundles).
final class RemoteConfigPayloadTests: XCTestCase {
    func payload(_ json: String) throws(PolicyBundleError) -> PolicySet {
        try RemoteConfigPayload.policySet(Array(json.utf8), name: "remote", environment: "prod")
    }

    func testPinGuardDefaultsApplyToAbsentKeys() throws {
        let set = try payload(#"{"version":1,"policySet":{"policies":[{"pattern":"*.example.com","policy":{"pins":[{"type":"ca","hash":"sha256/\#(String(repeating: "B", count: 42))A="}]}}],"defaultPolicy":{"pins":[]}}}"#)
        let env = try XCTUnwrap(set.environments["prod"])
        let policy = try XCTUnwrap(env.rules.first?.policy)
        XCTAssertEqual(env.rules.first?.pattern, .oneLabel("example.com"))
        XCTAssertEqual(policy.pins, [Pin(type: .ca, hash: String(repeating: "B", count: 42) + "A=", role: .primary, scope: .any)])
        XCTAssertEqual(policy.failStrategy, .strict)
        XCTAssertTrue(policy.requireSystemTrust)
        XCTAssertFalse(policy.allowSystemTrustFallback)
        XCTAssertEqual(env.defaultPolicy?.pins, [])
    }

    /// Found by fuzzing: a decoding error quoted a control character of the input.
    func testDecodingErrorsEchoNoControlCharacters() {
        let inputs = [#"{"version":1,"policySet":{"policies":[{"pattern":"a.example","policy":{"pins":[{"type":"\u007f\u001b[31m","hash":"x"}]}}]}}"#,
                      #"{"version":1,"policySet":{"policies":[{"pattern":"a\u0007.example","policy":{"pins":[]}}]}}"#,
                      #"{"version":1,"policySet":{"policies":[{"pattern":"a.example","policy":{"pins":[{"type":"spki","hash":"\u0000"}]}}]}}"#]
        for input in inputs {
            XCTAssertThrowsError(try payload(input)) { error in
                let message = (error as? PolicyBundleError)?.message ?? ""
                XCTAssertEqual((error as? PolicyBundleError)?.status, .malformed)
                XCTAssertFalse(message.unicodeScalars.contains(where: EchoedInput.isUnsafe), message)
            }
        }
    }

    func testBlobWithoutPayloadOrWithBadBase64IsMalformed() {
        for json in [#"{"signature":"AA=="}"#, #"{"payload":"%%%"}"#, #"{"payload":"e30=","signature":7}"#,
                     #"{"payload":"e30=","signatureType":{"rsa":{}}}"#] {
            XCTAssertThrowsError(try SignedBlob.parse(Array(json.utf8))) { error in
                XCTAssertEqual((error as? PolicyBundleError)?.status, .malformed, json)
            }
        }
        XCTAssertEqual(try SignedBlob.parse(Array(#"{"payload":"e30="}"#.utf8)).scheme, nil, "unsigned, not malformed")
    }
}
