import COpenSSL
import Foundation
import PinGuardCore

/// The checks a client makes on the one path it built, beyond finding it: OpenSSL's verification of exactly
/// that path (signatures, validity, basic and name constraints, the `serverAuth` purpose, key sizes and
/// digests at the handshake's security level, as `ServerVerification` sets them) with the path's root as the
/// only anchor, then the client's own rules (a root's distrust date, Apple's certificate lifetime limit).
/// The host name is checked per probe (`ClientPathJudge`), so a path holds for every name it is served under.
enum PathCheck {
    /// Why the client rejects `path` (leaf first, `anchor`'s certificate last) at `time`; nil when it accepts it.
    /// - Parameter openSSL: OpenSSL's verdict on the path when already known for the strategy's level and leniency
    ///   (`SearchMemo`); nil: verified here.
    /// - Parameter issuerTarget: the path starts at an issuer above a leaf not issued yet: the leaf's own checks
    ///   are left to the leaf, the issuer is checked as the certificate authority it is (`issuerFailure`).
    static func failure(of path: [OpaquePointer], anchor: ClientStoreData.Root, strategy: PathStrategy,
                        publicRoots: Bool, at time: Date, openSSL: String?? = nil, issuerTarget: Bool = false) -> String? {
        if let error = openSSL ?? openSSLFailure(of: path, strategy: strategy, at: time, issuerTarget: issuerTarget) { return error }
        if issuerTarget { return issuerFailure(of: path, strategy: strategy) }
        return clientRulesFailure(of: path, anchor: anchor, strategy: strategy, publicRoots: publicRoots)
    }

    /// The client's own rules on a path OpenSSL accepted: the anchor's distrust date, Apple's EC minimum, the
    /// leaf's lifetime limit.
    static func clientRulesFailure(of path: [OpaquePointer], anchor: ClientStoreData.Root, strategy: PathStrategy,
                                   publicRoots: Bool) -> String? {
        let leaf = path[0]
        let issued = CertificateReader.time(X509_get0_notBefore(leaf))
        if let after = anchor.distrustAfter, issued > after {
            return "\(anchor.subject) is distrusted for certificates issued after \(day(after)); this leaf was issued \(day(issued))"
        }
        if let weak = appleWeakKey(path, strategy: strategy) { return weak }
        let days = CertificateReader.time(X509_get0_notAfter(leaf)).timeIntervalSince(issued) / 86_400
        if let limit = lifetimeLimit(strategy, publicRoots: publicRoots, issued: issued), days > limit.days {
            return "the leaf is valid for \(Int(days.rounded())) days, more than the \(Int(limit.days)) days \(limit.who) accept"
        }
        return nil
    }

    /// The longest validity the client accepts for a TLS server leaf issued at `issued`: Apple's, for system
    /// roots 398 days from 2020-09-01 and 825 days and an hour from 2018-03-01, for other anchors 825 days and an
    /// hour from 2019-07-01; Chrome's 398 days for public roots; nil when the client sets none.
    static func lifetimeLimit(_ strategy: PathStrategy, publicRoots: Bool, issued: Date) -> (days: Double, who: String)? {
        let hour = 1.0 / 24
        switch strategy {
        case .apple where publicRoots:
            if issued >= Date(timeIntervalSince1970: 1_598_918_400) { return (398, "Apple's clients") }
            if issued >= Date(timeIntervalSince1970: 1_519_862_400) { return (825 + hour, "Apple's clients") }
            return nil
        case .apple:
            return issued > Date(timeIntervalSince1970: 1_561_939_200) ? (825 + hour, "Apple's clients under a private root") : nil
        case .chrome where publicRoots:
            return (398, "Chrome's clients under a public root")
        default:
            return nil
        }
    }

    /// Why Apple's clients refuse `path` for an EC key under 256 bits below its anchor; nil otherwise.
    static func appleWeakKey(_ path: [OpaquePointer], strategy: PathStrategy) -> String? {
        guard strategy == .apple, let weak = path.dropLast().first(where: { ecBits($0).map { $0 < 256 } ?? false }) else { return nil }
        return "\(CertificateReader.name(X509_get_subject_name(weak))) has an EC key under 256 bits, which Apple's clients refuse"
    }

    /// The size of `x`'s key when it is an EC key.
    static func ecBits(_ x: OpaquePointer) -> Int? {
        guard let key = X509_get0_pubkey(x), EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return nil }
        return Int(EVP_PKEY_get_bits(key))
    }

    /// OpenSSL's verdict on exactly `path`: the root alone in the store (a partial chain allowed, so a root that
    /// is not self-signed anchors as the client's store makes it), the intermediates as the only untrusted ones.
    /// With `issuerTarget`, the path's first certificate is an issuer checked as a certificate authority
    /// (`PathCheck+Issuer`).
    static func openSSLFailure(of path: [OpaquePointer], strategy: PathStrategy, at time: Date, issuerTarget: Bool = false) -> String? {
        guard let anchor = path.last, let store = X509_STORE_new() else { return "verification could not start" }
        defer { X509_STORE_free(store) }
        _ = X509_STORE_add_cert(store, anchor)
        guard let untrusted = pg_sk_X509_new_null(), let context = X509_STORE_CTX_new() else { return "verification could not start" }
        defer { pg_sk_X509_free(untrusted); X509_STORE_CTX_free(context) }
        for x in path.dropFirst().dropLast() { _ = pg_sk_X509_push(untrusted, x) }
        guard X509_STORE_CTX_init(context, store, path[0], untrusted) == 1 else { return "verification could not start" }
        ServerVerification.preparePurpose(context)
        let param = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_auth_level(param, strategy.securityLevel)
        X509_VERIFY_PARAM_set_flags(param, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        X509_VERIFY_PARAM_set_time(param, time_t(clamping: Int64(time.timeIntervalSince1970.rounded(.down))))
        if issuerTarget {
            X509_STORE_CTX_set_verify_cb(context, strategy.checksAnchorDates ? issuerAsTarget : issuerAsTargetOfPKIXClients)
        } else if !strategy.checksAnchorDates {
            X509_STORE_CTX_set_verify_cb(context, leniencyOfPKIXClients)
        }
        defer { OpenSSLErrorQueue.clear() }
        if X509_verify_cert(context) == 1 { return nil }
        let code = X509_STORE_CTX_get_error(context)
        let depth = X509_STORE_CTX_get_error_depth(context)
        let what = String(cString: X509_verify_cert_error_string(Int(code)))
        let subject = Int(depth) < path.count ? CertificateReader.name(X509_get_subject_name(path[Int(depth)])) : "?"
        return "\(what) (\(subject), depth \(depth))"
    }

    /// The verify callback of Chrome, Android and the JVM, where OpenSSL is stricter than they are: the anchor is
    /// a name and a key to them (its validity dates and extended key usage are not checked, as a PKIX trust
    /// anchor is not part of the path), and `anyExtendedKeyUsage` satisfies `serverAuth` at any depth.
    static let leniencyOfPKIXClients: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
        pkixLeniency(ok, context)
    }

    /// `leniencyOfPKIXClients`' decision on one verification error.
    static func pkixLeniency(_ ok: Int32, _ context: OpaquePointer?) -> Int32 {
        guard ok == 0, let context, let chain = X509_STORE_CTX_get0_chain(context) else { return ok }
        let error = X509_STORE_CTX_get_error(context)
        let atAnchor = X509_STORE_CTX_get_error_depth(context) == pg_sk_X509_num(chain) - 1
        switch error {
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
            return atAnchor ? 1 : ok
        case X509_V_ERR_INVALID_PURPOSE:
            let current = X509_STORE_CTX_get_current_cert(context)
            let anyEKU = current.map { X509_get_extended_key_usage($0) & UInt32(XKU_ANYEKU) != 0 } ?? false
            return atAnchor || anyEKU ? 1 : ok
        default:
            return ok
        }
    }

    static func day(_ date: Date) -> String { String(RFC3339.format(date).prefix(10)) }
}
