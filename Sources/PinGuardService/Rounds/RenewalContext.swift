import Foundation
import PinGuardARI
import PinGuardConfig
import PinGuardCore

/// What the forecast of a target's next renewal draws on: the configuration's renewal settings and issuer
/// pools, the issuer catalog, the staged chains of `files:` and the memory of served chains.
struct RenewalContext: RenewalOutlookSource {
    let defaults: RenewalSettings
    let pools: [String: [IssuerOption]]
    let catalog: IssuerCatalog
    /// Staged chains by host (the judged `files:` results), with the file each was read from.
    let staged: [String: (file: String, chain: [ChainCertificate])]
    let memory: ChainMemory
    /// The CAs' renewal windows of the served leaves, when renewal information is watched.
    let renewalInfo: RenewalInfoWatch?
    /// Certificates revoked on any target's chain: no target's next issuer.
    let revoked: KnownRevocations?
    /// Each client's paths above the next issuers (a set names a client).
    let issuerPaths: (any IssuerPathsSource)?

    init(_ loaded: LoadedConfiguration, files: [TargetResult], memory: ChainMemory, renewalInfo: RenewalInfoWatch? = nil,
         revoked: KnownRevocations? = nil) {
        defaults = loaded.config.renewal
        pools = loaded.issuerPools
        catalog = loaded.issuerCatalog
        var staged: [String: (file: String, chain: [ChainCertificate])] = [:]
        for f in files where f.facts.success {
            let chain = f.facts.evaluatedChain
            // The newest staged chain of a host is the one the renewal will serve.
            if let old = staged[f.target.host]?.chain.first, let new = chain.first, old.notBefore >= new.notBefore { continue }
            staged[f.target.host] = (f.target.name, chain)
        }
        self.staged = staged
        self.memory = memory
        self.renewalInfo = renewalInfo
        self.revoked = revoked
        issuerPaths = loaded.issuerPaths
    }

    /// The outlook of `result`'s next renewal; nil when it served no chain.
    func outlook(for result: TargetResult) -> RenewalOutlook? {
        let chain = result.forecastChain
        guard !chain.isEmpty else { return nil }
        let settings = (result.target.renewal ?? RenewalSettings()).over(defaults)
        let anchor = chain.count > 1 ? chain.last : nil
        let outlook = RenewalOutlookBuilder.outlook(chain: chain, settings: settings, staged: staged[result.target.host]?.chain,
                                                    stagedFile: staged[result.target.host]?.file,
                                                    observed: memory.observed(target: result.target.name, anchor: anchor),
                                                    pools: pools, catalog: catalog, window: window(for: result),
                                                    revoked: result.revokedCertificates.union(revoked?.current ?? []))
        return outlook?.withClientPaths(from: issuerPaths, at: result.forecastTime ?? chain[0].notBefore)
    }

    /// The CA's window for `result`'s served leaf, when one is known for the directory its settings name.
    private func window(for result: TargetResult) -> RenewalWindow? {
        guard let renewalInfo, let watched = WatchedCertificate.serving(result, defaults: defaults, catalog: catalog),
              renewalInfo.status(certID: watched.certID)?.directory == watched.directory else { return nil }
        return renewalInfo.window(certID: watched.certID)
    }
}
