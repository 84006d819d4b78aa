/// Which certificates of a target's evaluated chain get the per-certificate series
/// (`pinguard_cert_info`, `pinguard_cert_not_after_timestamp_seconds`, `..._not_before_...`): config
/// `metrics.certificates`.
public enum CertificateSeries: String, Sendable, Equatable, CaseIterable {
    /// Every certificate of the chain (the default).
    case chain
    /// The leaf only: about a third of the bytes for typical three-certificate chains; the chain's earliest
    /// expiry stays in `pinguard_chain_earliest_expiry_timestamp_seconds` and every pin is still judged.
    case leaf
}
