import PinGuardCore

extension WatchedCertificate {
    /// The certificate whose window `result`'s forecast reads: its served leaf's RFC 9773 identifier and the
    /// ACME directory `renewal.acme_directory` (the target's over `defaults`) or the issuer catalog names for
    /// its issuer; nil without a leaf with an Authority Key Identifier, or when no directory is known or it is `none`.
    public static func serving(_ result: TargetResult, defaults: RenewalSettings, catalog: IssuerCatalog) -> WatchedCertificate? {
        let chain = result.forecastChain
        guard let leaf = chain.first, let certID = RenewalInfoID.of(leaf) else { return nil }
        let settings = (result.target.renewal ?? RenewalSettings()).over(defaults)
        let issuer = chain.count > 1 ? chain[1].spkiSHA256 : nil
        guard let directory = settings.renewalInfoDirectory(issuerSPKI: issuer, catalog: catalog) else { return nil }
        return WatchedCertificate(certID: certID, directory: directory)
    }
}
