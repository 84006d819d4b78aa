import PinGuardCore
import PinGuardCrypto
import PinGuardReaders

extension BundleSignatureVerifier {
    /// Throws the reason a client rejects `blob`; returns when its signature verifies.
    public static func verify(_ blob: SignedBlob, hmacSecrets: [String: [UInt8]], ecdsaKeys: [String: PublicKey]) throws(PolicyBundleError) {
        try verify(scheme: blob.scheme, payload: blob.payload, signature: blob.signature, hmacSecrets: hmacSecrets, ecdsaKeys: ecdsaKeys)
    }
}
