import Foundation
import NIOConcurrencyHelpers

/// The certificates a valid CRL lists as revoked on any target's chain, by `cert_sha256`: what a list says about a
/// certificate holds wherever that certificate appears, so an intermediate revoked in one target's chain is no
/// plausible next issuer in any target's forecast (`RenewalContext` reads it at each forecast).
public final class KnownRevocations: Sendable {
    private let certificates = NIOLockedValueBox<Set<String>>([])

    /// None known.
    public init() {}

    /// The revoked certificates known now.
    public var current: Set<String> { certificates.withLockedValue { $0 } }

    /// Takes `known` as the set; true when it changed.
    func replace(with known: Set<String>) -> Bool {
        certificates.withLockedValue { held in
            guard held != known else { return false }
            held = known
            return true
        }
    }
}
