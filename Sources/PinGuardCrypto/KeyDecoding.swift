import CKeyDecoding
import COpenSSL

/// How OpenSSL decodes the public keys of the certificates it parses, and holds the keys pinguard uses.
///
/// OpenSSL 3.0 decodes each certificate's public key through its providers' decoder chain, built afresh
/// for every key: a quarter of a millisecond per certificate, a third of a probe's CPU (docs/benchmarks.md,
/// "Where a probe's CPU goes"). When the process starts, an engine supplying OpenSSL's own built-in RSA and
/// EC methods is registered (`Sources/CKeyDecoding`); OpenSSL then decodes those keys with its built-in
/// ASN.1 code, about five times faster, and runs their operations with its built-in methods. Private keys
/// read through the providers' decoders (PEM, PKCS#12) must be adopted before use. EC keys of P-256,
/// P-384 and P-521 are decoded on curves built once instead of one built per key (`named_curves.c`).
package enum KeyDecoding {
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
