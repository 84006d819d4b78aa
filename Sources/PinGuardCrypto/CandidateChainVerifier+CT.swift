import COpenSSL
import Foundation
import PinGuardCore

extension CandidateChainVerifier {
    /// The embedded SCTs of the candidate's leaf, checked with `keyring` at `time`; the issuer is the
    /// verified chain's second certificate, else the second certificate given.
    static func embeddedSCTs(of certificates: [OpaquePointer], verifiedIssuer: OpaquePointer?, keyring: CTLogKeyring,
                             at time: Date) -> [ObservedSCT] {
        guard let leaf = certificates.first else { return [] }
        let issuer = verifiedIssuer ?? (certificates.count > 1 ? certificates[1] : nil)
        return SCTVerifier.embeddedSCTs(of: leaf, issuer: issuer, keyring: keyring, at: time)
    }
}
