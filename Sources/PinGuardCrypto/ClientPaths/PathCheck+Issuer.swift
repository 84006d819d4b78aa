import COpenSSL
import Foundation
import PinGuardCore

/// The checks of a path that starts at an issuing certificate authority, above a leaf not issued yet: the path a
/// client would build above the next leaf when the CA moves to that issuer (the renewal forecast's
/// `IssuerPathsSource`). The leaf's own checks (its name, its lifetime, a distrust date against its issue date)
/// are the next leaf's, made by the forecast; the issuer is checked as the certificate authority it will be on
/// the path: one that may issue `serverAuth` certificates, counted in the path length of the ones above it.
extension PathCheck {
    /// The verify callback for an issuer at depth 0, for Apple (whose anchors' dates count).
    static let issuerAsTarget: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
        issuerLeniency(ok, context) ? 1 : ok
    }

    /// The verify callback for an issuer at depth 0, for Chrome, Android and the JVM (`leniencyOfPKIXClients`).
    static let issuerAsTargetOfPKIXClients: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
        issuerLeniency(ok, context) ? 1 : pkixLeniency(ok, context)
    }

    /// Whether the error is OpenSSL checking the issuer at depth 0 for the purpose of a TLS server's leaf,
    /// where the issuer is fit for the purpose as a certificate authority.
    static func issuerLeniency(_ ok: Int32, _ context: OpaquePointer?) -> Bool {
        guard ok == 0, let context, X509_STORE_CTX_get_error(context) == X509_V_ERR_INVALID_PURPOSE,
              X509_STORE_CTX_get_error_depth(context) == 0, let issuer = X509_STORE_CTX_get_current_cert(context) else { return false }
        return X509_check_purpose(issuer, X509_PURPOSE_SSL_SERVER, 1) == 1
    }

    /// Why a client refuses `path` above a leaf to come, beyond OpenSSL's verdict: the issuer is no certificate
    /// authority, a certificate above it allows fewer intermediates below it than the path has once the leaf is
    /// below the issuer, or (Apple) an EC key under 256 bits. Nil when it accepts it.
    static func issuerFailure(of path: [OpaquePointer], strategy: PathStrategy) -> String? {
        guard let issuer = path.first else { return "an empty path" }
        let name = { (x: OpaquePointer) in CertificateReader.name(X509_get_subject_name(x)) }
        if X509_check_ca(issuer) == 0 { return "\(name(issuer)) is not a certificate authority" }
        var below = 0
        for k in path.indices.dropFirst() {
            if X509_get_extension_flags(path[k - 1]) & UInt32(EXFLAG_SI) == 0 { below += 1 }
            let limit = X509_get_pathlen(path[k])
            if limit >= 0, below > limit {
                return "\(name(path[k])) allows \(limit) intermediate certificates below it; the path has \(below)"
            }
        }
        return appleWeakKey(path, strategy: strategy)
    }
}
