import COpenSSL
import Foundation
import PinGuardCore
#if canImport(Glibc)
import Glibc
#endif

/// The rules every chain is verified by as a TLS client verifies a server's, in one place: the handshake of
/// `probe` and `serve` (`TLSProber`) and the offline verification of `plan`, `lint --chain` and `files:`
/// (`CandidateChainVerifier`) set their parameters here, so the same chain gets the same verdict from each.
///
/// - **Purpose** `sslserver`: the leaf's extended key usage, when present, must allow `serverAuth` (as OpenSSL's
///   handshake sets it, and as Chrome, Android and Apple require).
/// - **Security level**: the default TLS client context's (`SSL_CTX_get_security_level`; 2 with Debian's
///   `openssl.cnf`): keys under 2048-bit RSA or 224-bit EC and SHA-1 signatures fail, as in the handshake.
/// - **Names from the subjectAltName only**: a leaf whose name is only in its subject's common name matches no
///   host, as in Chrome (since 58), Android (since 9, Conscrypt's hostname verifier) and Apple's clients.
public enum ServerVerification {
    /// `X509_CHECK_FLAG_NEVER_CHECK_SUBJECT`: the common name is never read as a host name.
    public static let hostFlags: UInt32 = 0x20

    /// The security level of a default TLS client context on this system.
    public static let securityLevel: Int32 = {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return 1 }
        defer { SSL_CTX_free(context) }
        return SSL_CTX_get_security_level(context)
    }()

    /// Sets `param` to check `host` (a name, or an address literal against the IP addresses of the SAN), names
    /// from the SAN only.
    public static func setIdentity(_ param: OpaquePointer?, host: String) {
        X509_VERIFY_PARAM_set_hostflags(param, hostFlags)
        if isAddressLiteral(host) {
            _ = X509_VERIFY_PARAM_set1_ip_asc(param, host)
        } else {
            _ = X509_VERIFY_PARAM_set1_host(param, host, 0)
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address literal, checked against the SAN's IP addresses, not its names.
    public static func isAddressLiteral(_ host: String) -> Bool {
        IPv6Literal.isValid(host) || inet_addr(host) != INADDR_NONE
    }

    /// Prepares a store context as OpenSSL's handshake prepares a client's: purpose and trust `ssl_server`, the
    /// security level of `securityLevel`, and `host`'s identity.
    public static func prepare(_ context: OpaquePointer, host: String) {
        preparePurpose(context)
        setIdentity(X509_STORE_CTX_get0_param(context), host: host)
    }

    /// Purpose and trust `ssl_server` and the security level, without a host: a client's path is checked for
    /// its name apart (`ClientPathJudge`), once per name it is served under.
    public static func preparePurpose(_ context: OpaquePointer) {
        _ = X509_STORE_CTX_set_default(context, "ssl_server")
        X509_VERIFY_PARAM_set_auth_level(X509_STORE_CTX_get0_param(context), securityLevel)
    }
}
