/// SHA-256 over what a chain verification depends on besides the trust store, the time and the checked
/// identity: the verification parameters' flags, depth and security level, and the DER bytes of each
/// served certificate in order.
package struct VerificationKey: Hashable, Sendable {
    let a: UInt64, b: UInt64, c: UInt64, d: UInt64

    /// The key of a 32-byte digest.
    package init(digest: UnsafeRawBufferPointer) {
        a = digest.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        b = digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        c = digest.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        d = digest.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
    }
}
