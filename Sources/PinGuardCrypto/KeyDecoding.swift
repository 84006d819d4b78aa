import CKeyDecoding
import COpenSSL

/// How OpenSSL decodes the public keys of the certificates it parses, and holds the keys pinguard uses.
///
/// OpenSSL 3.0 decodes each certificate's public key through its providers' decoder chain, built afresh
/// for every key: a quarter of a millisecond per certificate, a third of a probe's CPU (docs/benchmarks.md,
/// "Where a probe's CPU goes"). When the process starts, an engine supplying OpenSSL's own built-in RSA and
/// EC methods is registered by `install()` (`Sources/CKeyDecoding`), which a program calls first thing, before
/// any key exists; merely loading the library changes nothing in OpenSSL. OpenSSL then decodes those keys with its built-in
/// ASN.1 code, about five times faster, and runs their operations with its built-in methods. Private keys
/// read through the providers' decoders (PEM, PKCS#12) must be adopted before use. EC keys of P-256,
/// P-384 and P-521 are decoded on curves built once instead of one built per key (`named_curves.c`).
package enum KeyDecoding {
    /// What `install()` put in force.
    package enum Installed: Sendable, Equatable {
        /// Built-in RSA and EC methods, with P-256, P-384 and P-521 decoded on curves built once.
        case builtInWithNamedCurves
        /// Built-in RSA and EC methods; EC curves built per key (the OpenSSL release's private layout was not
        /// checked, or its self-test failed).
        case builtIn
        /// OpenSSL's providers, as without pinguard (not OpenSSL 3.0, or the engine could not be registered).
        case providers

        /// One line for the start-up message when the fast path is not (fully) in force; nil when it is.
        package var notice: String? {
            switch self {
            case .builtInWithNamedCurves: return nil
            case .builtIn: return "OpenSSL \(KeyDecoding.openSSLRelease): EC public keys are decoded on curves built per key (named curves are built once only on checked OpenSSL releases)"
            case .providers: return "OpenSSL \(KeyDecoding.openSSLRelease): public keys are decoded through OpenSSL's providers (the faster built-in methods are used on OpenSSL 3.0 only)"
            }
        }
    }

    /// Registers the built-in methods, once per process; call it before any key is read or made. Later calls
    /// return what the first one put in force.
    @discardableResult
    package static func install() -> Installed {
        guard pg_key_decoding_install() == 1 else { return .providers }
        return namedCurvesReady ? .builtInWithNamedCurves : .builtIn
    }

    /// The running OpenSSL's release, as it names itself (`3.0.22`).
    package static var openSSLRelease: String { String(cString: OpenSSL_version(Int32(OPENSSL_VERSION_STRING))) }

    /// Whether the running OpenSSL is a release the named-curves decoding was checked against (only there is it used).
    package static var onCheckedRelease: Bool { pg_key_decoding_checked_release() == 1 }

    /// Whether the built-in methods are in force in this process.
    package static var isActive: Bool { pg_key_decoding_registered() == 1 }

    /// Whether EC public keys of the common named curves are decoded on curves built once.
    package static var namedCurvesReady: Bool { pg_key_decoding_named_curves() == 1 }

    /// Whether keys of the OpenSSL type `nid` (`EVP_PKEY_EC`, ...) are decoded and used the built-in way.
    package static func isBuiltIn(_ nid: Int32) -> Bool { pg_key_decoding_is_builtin(nid) == 1 }

    /// `key` as a key of the built-in methods (a provider's RSA or EC key is copied and freed; other keys
    /// are returned as they are); nil when the copy fails, `key` then being freed.
    package static func adopt(_ key: OpaquePointer) -> OpaquePointer? {
        pg_key_decoding_adopt(UnsafeMutableRawPointer(key)).map { OpaquePointer($0) }
    }
}
