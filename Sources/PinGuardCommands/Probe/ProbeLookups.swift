import Foundation
import PinGuardARI
import PinGuardCore

/// What `probe` asks beyond the handshake, through the guarded fetcher: the leaf's renewal window from its CA
/// (RFC 9773). The fetcher runs on NIO, which the commands do not link, so the `pinguard` executable gives the
/// lookups (PinGuardFetch); without them `probe` asks nothing and forecasts from declarations alone.
public protocol ProbeLookups: Sendable {
    /// The CA's answer for `certificate`, asked once with `settings` (nothing kept after the run); throws when
    /// the fetcher cannot be made from `settings`.
    func renewalInfo(of certificate: WatchedCertificate, fetch settings: FetchSettings, now: Date) async throws -> RenewalInfoAnswer
}
