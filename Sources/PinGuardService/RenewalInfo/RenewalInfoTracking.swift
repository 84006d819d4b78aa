import Foundation
import PinGuardARI
import PinGuardConfig
import PinGuardCore

/// Which certificate's renewal window a result's forecast reads: its served leaf's RFC 9773 identifier and
/// the ACME directory `renewal.acme_directory` or the issuer catalog names for its issuer.
///
/// The service's half of ACME Renewal Information; the others are PinGuardCore/ARI (identifier, window,
/// schedule), PinGuardReaders/ARI (the JSON) and PinGuardARI (the checks, through the guarded fetcher).
enum RenewalInfoTracking {
    /// The certificate `result`'s forecast asks about; nil without a leaf with an Authority Key Identifier,
    /// or when no directory is known or `renewal.acme_directory` is `none`.
    static func watched(_ result: TargetResult, defaults: RenewalSettings, catalog: IssuerCatalog) -> WatchedCertificate? {
        let chain = result.forecastChain
        guard let leaf = chain.first, let certID = RenewalInfoID.of(leaf) else { return nil }
        let settings = (result.target.renewal ?? RenewalSettings()).over(defaults)
        let issuer = chain.count > 1 ? chain[1].spkiSHA256 : nil
        guard let directory = settings.renewalInfoDirectory(issuerSPKI: issuer, catalog: catalog) else { return nil }
        return WatchedCertificate(certID: certID, directory: directory)
    }
}
