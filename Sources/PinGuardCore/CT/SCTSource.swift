/// Where a Signed Certificate Timestamp came from; raw values are the `source` label of `pinguard_ct_scts`.
public enum SCTSource: String, Sendable, Codable, CaseIterable {
    /// The certificate's SCT list extension (OID 1.3.6.1.4.1.11129.2.4.2), signed over the precertificate.
    case embedded
    /// The TLS `signed_certificate_timestamp` extension.
    case tls
    /// A stapled OCSP response's SCT list extension.
    case ocsp
}
