import Foundation

/// Where the forecast finds the path each client builds above an issuer a renewal may come from, version by
/// version, as it finds today's paths above today's leaf: from the issuer's certificates and those the CA serves
/// with it, through each client's store and path building (PinGuardCrypto's `IssuerClientPaths`).
public protocol IssuerPathsSource: Sendable {
    /// The paths each client builds above `option`'s issuing certificate at `time`, each chain starting at that
    /// certificate; nil when its certificate is not known.
    func clientPaths(above option: IssuerOption, at time: Date) -> ClientPaths?
}

extension RenewalOutlook {
    /// This outlook with each issuer's client paths from `source` at `time` (unchanged without a source).
    public func withClientPaths(from source: (any IssuerPathsSource)?, at time: Date) -> RenewalOutlook {
        guard let source else { return self }
        var out = self
        for k in out.issuers.indices { out.issuers[k].clientPaths = source.clientPaths(above: out.issuers[k], at: time) }
        return out
    }
}

extension TargetResult {
    /// When the result's facts were taken: the first address that served a chain finished then.
    public var forecastTime: Date? { nodes.first(where: { $0.facts.success })?.facts.finishedAt }
}
