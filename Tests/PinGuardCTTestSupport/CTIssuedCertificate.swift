import PinGuardDemo

/// A certificate issued the CT way: the precertificate the logs saw and the final certificate with their
/// SCTs embedded.
public struct CTIssuedCertificate: Sendable {
    /// The precertificate: the final certificate's content with the critical poison extension instead of
    /// the SCT list, signed by the issuer.
    public var precertificate: DemoCertificate
    /// The certificate to serve, with the SCT list extension.
    public var certificate: DemoCertificate
    /// The TBSCertificate the embedded SCTs were signed over (the precertificate's, poison removed).
    public var precertificateTBS: [UInt8]
    /// The embedded SCTs, TLS-encoded, in list order.
    public var scts: [[UInt8]]
}
