import Foundation

/// The outlook of a target known only by what is declared, with no staged file and no memory of served chains:
/// what `probe` and `plan` forecast by (`--renewal-key`, `--renewal-before`, a configuration's `renewal`,
/// `issuer_pools` and issuer catalog).
public struct DeclaredRenewalOutlook: RenewalOutlookSource {
    /// How the renewal is declared.
    public var settings: RenewalSettings
    /// The configuration's issuer pools.
    public var pools: [String: [IssuerOption]]
    /// The issuer catalog.
    public var catalog: IssuerCatalog
    /// The CA's renewal window for the leaf, when it was asked for one.
    public var window: RenewalWindow?
    /// Each client's paths above the next issuers, when a set names a client.
    public var issuerPaths: (any IssuerPathsSource)?

    /// An outlook source from declarations alone.
    public init(settings: RenewalSettings, pools: [String: [IssuerOption]] = [:], catalog: IssuerCatalog) {
        self.settings = settings
        self.pools = pools
        self.catalog = catalog
    }

    /// The outlook of `result`'s next renewal from its first address's chain.
    public func outlook(for result: TargetResult) -> RenewalOutlook? {
        let chain = result.forecastChain
        let outlook = RenewalOutlookBuilder.outlook(chain: chain, settings: (result.target.renewal ?? RenewalSettings()).over(settings),
                                                    staged: nil, observed: nil, pools: pools, catalog: catalog, window: window,
                                                    revoked: result.revokedCertificates)
        guard let time = result.forecastTime else { return outlook }
        return outlook?.withClientPaths(from: issuerPaths, at: time)
    }
}
