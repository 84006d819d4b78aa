import COpenSSL
import Foundation
import PinGuardCrypto

extension VerificationCache {
    /// A cache for the trust store of `context`, installed as the context's verification step: every
    /// handshake of the context then verifies through `verify(_:)`.
    static func install(on context: OpaquePointer, now: @escaping @Sendable () -> Date) -> VerificationCache {
        let cache = VerificationCache(storeBoundaries: storeBoundaries(of: context), now: now)
        SSL_CTX_set_cert_verify_callback(context, { storeContext, cache in
            guard let storeContext, let cache else { return 0 }
            return Unmanaged<VerificationCache>.fromOpaque(cache).takeUnretainedValue().verify(storeContext)
        }, Unmanaged.passUnretained(cache).toOpaque())
        return cache
    }

    /// OpenSSL's verification of the served chain in `storeContext`, or the stored outcome of an earlier
    /// one of the same chain: the context is left as `X509_verify_cert` would leave it (result, error
    /// depth, built chain), which is all the handshake takes from it.
    func verify(_ storeContext: OpaquePointer) -> Int32 {
        guard let served = X509_STORE_CTX_get0_untrusted(storeContext), let param = X509_STORE_CTX_get0_param(storeContext),
              let key = Self.key(of: param, served: served) else {
            return max(X509_verify_cert(storeContext), 0)
        }
        let identity = Self.identity(of: param)
        let time = now()
        if let stored = outcome(for: key, at: time),
           let answer = Self.answer(stored, for: identity, leaf: X509_STORE_CTX_get0_cert(storeContext), param: param) {
            count(hit: true)
            Self.apply(answer, stored.chain, to: storeContext, served: served)
            return answer.error == X509_V_OK ? 1 : 0
        }
        count(hit: false)
        let returned = X509_verify_cert(storeContext)
        // Below 0 is an internal failure (memory, say): not an answer to remember. The handshake treats
        // it as a failed verification, as it does without this callback.
        guard returned >= 0 else { return 0 }
        store(Self.outcome(of: storeContext, identity: identity, returned: returned, served: served, at: time), for: key, at: time)
        return returned
    }

    /// The key of a verification: the parameters' flags, depth and security level and the served
    /// certificates' DER bytes; nil when a certificate cannot be encoded.
    static func key(of param: OpaquePointer, served: OpaquePointer) -> VerificationKey? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        for field in [UInt64(X509_VERIFY_PARAM_get_flags(param)), UInt64(X509_VERIFY_PARAM_get_hostflags(param)),
                      UInt64(bitPattern: Int64(X509_VERIFY_PARAM_get_depth(param))),
                      UInt64(bitPattern: Int64(X509_VERIFY_PARAM_get_auth_level(param)))] {
            withUnsafeBytes(of: field.bigEndian) { bytes += $0 }
        }
        for i in 0..<pg_sk_X509_num(served) {
            guard let x = pg_sk_X509_value(served, i), let der = CertificateReader.der(of: x, encode: i2d_X509) else { return nil }
            withUnsafeBytes(of: UInt32(der.count).bigEndian) { bytes += $0 }
            bytes += der
        }
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { _ = SHA256($0.baseAddress, $0.count, &digest) }
        return digest.withUnsafeBytes { VerificationKey(digest: $0) }
    }

    /// What a verification run at `time` left in `storeContext`.
    static func outcome(of storeContext: OpaquePointer, identity: CheckedIdentity, returned: Int32, served: OpaquePointer,
                        at time: Date) -> VerificationOutcome {
        var servedIndex: [OpaquePointer: Int32] = [:]
        var certificates: [OpaquePointer] = []
        for i in 0..<pg_sk_X509_num(served) {
            guard let x = pg_sk_X509_value(served, i) else { continue }
            servedIndex[x] = i
            certificates.append(x)
        }
        var chain: [VerifiedLink]?
        if let built = X509_STORE_CTX_get0_chain(storeContext) {
            chain = (0..<pg_sk_X509_num(built)).compactMap { i -> VerifiedLink? in
                guard let x = pg_sk_X509_value(built, i) else { return nil }
                if let j = servedIndex[x] { return .served(j) }
                certificates.append(x)
                return .store(StoreCertificate(x))
            }
        }
        return VerificationOutcome(identity: identity, returned: returned, error: X509_STORE_CTX_get_error(storeContext),
                                   errorDepth: X509_STORE_CTX_get_error_depth(storeContext), chain: chain,
                                   validUntil: CertificateReader.firstValidityBoundary(of: certificates, after: time))
    }

    /// Puts a stored answer into `storeContext`, with the stored chain made of this handshake's served
    /// certificates and the store's.
    static func apply(_ answer: (error: Int32, depth: Int32), _ links: [VerifiedLink]?, to storeContext: OpaquePointer,
                      served: OpaquePointer) {
        if let links, let chain = pg_sk_X509_new_null() {
            for link in links {
                let x: OpaquePointer?
                switch link {
                case .served(let i): x = pg_sk_X509_value(served, i)
                case .store(let certificate): x = certificate.x509
                }
                guard let x else { continue }
                X509_up_ref(x)
                _ = pg_sk_X509_push(chain, x)
            }
            X509_STORE_CTX_set0_verified_chain(storeContext, chain)
        }
        X509_STORE_CTX_set_error(storeContext, answer.error)
        X509_STORE_CTX_set_error_depth(storeContext, answer.depth)
    }

    /// Every notBefore and notAfter of the certificates in the trust store of `context`.
    static func storeBoundaries(of context: OpaquePointer) -> [Date] {
        guard let store = SSL_CTX_get_cert_store(context), let all = X509_STORE_get1_all_certs(store) else { return [] }
        defer { pg_sk_X509_pop_free(all) }
        return (0..<pg_sk_X509_num(all)).flatMap { i -> [Date] in
            guard let x = pg_sk_X509_value(all, i) else { return [] }
            return [CertificateReader.time(X509_get0_notBefore(x)), CertificateReader.time(X509_get0_notAfter(x))]
        }
    }
}
