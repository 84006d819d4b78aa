import Foundation
import PinGuardCore

/// A signed remote configuration blob in PinGuard's layout (`RemoteConfigBlob`, JSON as its `Codable` writes
/// it): `payload` and `signature` are base64 strings, `signatureType` names the scheme and the key:
/// `{"hmacSHA256": {"secretID": "ID"}}` or `{"publicKey": {"keyID": "ID"}}` (ECDSA P-256 with SHA-256).
public struct SignedBlob: Sendable, Equatable {
    /// How the blob is signed.
    public typealias Scheme = SignatureScheme

    /// The exact payload bytes the signature covers.
    public var payload: [UInt8]
    /// The signature bytes; empty when the blob carries none.
    public var signature: [UInt8]
    /// The scheme; nil when the blob names none.
    public var scheme: Scheme?

    /// Parses the blob JSON; the error says what is missing or malformed.
    public static func parse(_ bytes: [UInt8]) throws(PolicyBundleError) -> SignedBlob {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let m = object as? [String: Any] else {
            throw PolicyBundleError(.malformed, "the bundle is not a JSON object")
        }
        guard let payloadText = m["payload"] as? String, let payload = Base64.decode(payloadText) else {
            throw PolicyBundleError(.malformed, "\"payload\" is missing or not base64")
        }
        var blob = SignedBlob(payload: payload, signature: [], scheme: nil)
        if let s = m["signature"], !(s is NSNull) {
            guard let text = s as? String, let bytes = Base64.decode(text) else {
                throw PolicyBundleError(.malformed, "\"signature\" is not base64")
            }
            blob.signature = bytes
        }
        if let t = m["signatureType"] as? [String: Any] {
            if let h = t["hmacSHA256"] as? [String: Any], let id = h["secretID"] as? String {
                blob.scheme = .hmacSHA256(secretID: id)
            } else if let p = t["publicKey"] as? [String: Any], let id = p["keyID"] as? String {
                blob.scheme = .ecdsaP256(keyID: id)
            } else {
                throw PolicyBundleError(.malformed, "\"signatureType\" is neither {\"hmacSHA256\": {\"secretID\": …}} nor {\"publicKey\": {\"keyID\": …}}")
            }
        }
        return blob
    }
}
