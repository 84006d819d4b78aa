/// Where one certificate of a verified (or partly built) chain came from: the server's chain, by its
/// position there, or the trust store.
package enum VerifiedLink: Sendable {
    /// The certificate at this index of the served chain (0 = leaf).
    case served(Int32)
    /// A certificate of the trust store.
    case store(StoreCertificate)
}
