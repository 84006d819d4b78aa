/// Which certificates of a target's evaluated chain get per-certificate series: config `metrics.certificates`.
///
/// The leaf has `pinguard_cert_info` and `pinguard_cert_not_{after,before}_timestamp_seconds` per address;
/// the certificates above it have `pinguard_chain_cert_info` per address, joined by fingerprint to
/// `pinguard_ca_cert_*`, which describe each distinct certificate once however many targets share it.
public enum CertificateSeries: String, Sendable, Equatable, CaseIterable {
    /// Every certificate of the chain (the default).
    case chain
    /// The leaf only: no `pinguard_chain_cert_info` and no `pinguard_ca_cert_*`; the chain's earliest expiry
    /// stays in `pinguard_chain_earliest_expiry_timestamp_seconds` and every pin is still judged.
    case leaf
    /// No per-certificate series at all; the earliest expiry and every verdict stay.
    case none
}
