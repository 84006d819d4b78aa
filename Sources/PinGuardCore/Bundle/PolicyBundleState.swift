/// The outcome of verifying a policy bundle (label `status` of `pinguard_policy_bundle_info`).
public enum PolicyBundleState: String, Sendable, Equatable, CaseIterable {
    /// Signature verified and payload decoded: clients enforce these pins.
    case valid
    /// The signature does not verify with the named key: a client rejects the bundle.
    case invalidSignature = "invalid_signature"
    /// No signature or no signature type: a client rejects the bundle.
    case unsigned
    /// The named key ID is not one the client (and pinguard) has: a client rejects the bundle.
    case unknownKey = "unknown_key"
    /// The blob or the signed payload cannot be read (not JSON, bad base64, unsupported version).
    case malformed
    /// The bundle file cannot be read.
    case unreadable
}
