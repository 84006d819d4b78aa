import Foundation
import PinGuardARI
import PinGuardCore
import PinGuardCrypto

/// What `probe` asks beyond the handshake, through the guarded fetcher: the CRLs of the served certificates, the
/// leaf's renewal window from its CA (RFC 9773) and the issuers Chrome and Apple download from caIssuers URLs. The
/// fetcher runs on NIO, which the commands do not link, so the `pinguard` executable gives the lookups
/// (PinGuardFetch, PinGuardService); without them `probe` asks nothing: no revocation is reported, the forecast
/// comes from declarations alone, and no issuer is downloaded.
public protocol ProbeLookups: Sendable {
    /// The CA's answer for `certificate`, asked once with `settings` (nothing kept after the run); throws when
    /// the fetcher cannot be made from `settings`.
    func renewalInfo(of certificate: WatchedCertificate, fetch settings: FetchSettings, now: Date) async throws -> RenewalInfoAnswer

    /// `probe` with the revocation state of its certificates from their CRLs, fetched as `settings` allow (nothing
    /// kept after the run); each refused fetch is said once through `notice`. Throws when the fetcher cannot be
    /// made from `settings`.
    func revocation(of probe: TargetProbe, fetch settings: FetchSettings,
                    notice: @escaping @Sendable (String) -> Void) async throws -> TargetProbe

    /// Downloads the caIssuers `urls` into `issuers`, as a round does (nothing kept after the run); true when any was
    /// recorded. Throws when the fetcher cannot be made from `settings`.
    func issuers(_ urls: [String], into issuers: FetchedIssuers, fetch settings: FetchSettings,
                 notice: @escaping @Sendable (String) -> Void) async throws -> Bool
}
