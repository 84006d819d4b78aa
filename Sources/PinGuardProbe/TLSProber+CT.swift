import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto

extension TLSProber {
    /// Makes every connection of `context` ask for SCTs: the TLS extension and a stapled OCSP response.
    /// Permissive, so that CT never fails a handshake: the SCTs are judged by pinguard, per client policy.
    ///
    /// OpenSSL's own permissive mode still leaves the error of an SCT list that does not parse on the
    /// thread's queue mid-handshake, where `SSL_get_error` then reads a mere "want read" as a failure; this
    /// callback accepts as that mode does and takes CT's errors off the queue, so a malformed list is a CT
    /// fact (no SCTs from it) and never a failed probe.
    static func requestSCTs(_ context: OpaquePointer) throws(ProbeError) {
        let acceptAll: ssl_ct_validation_cb = { _, _, _ in
            if pg_ERR_GET_LIB(ERR_peek_last_error()) == ERR_LIB_CT { ERR_clear_error() }
            return 1
        }
        guard SSL_CTX_set_ct_validation_callback(context, acceptAll, nil) == 1 else {
            SSL_CTX_free(context)
            throw ProbeError.openSSL("cannot enable Certificate Transparency")
        }
    }

    /// Fills `facts.ct` with the SCTs of a finished handshake, checked now. Embedded SCTs are checked with
    /// the issuer a client would use: the verified chain's second certificate when trust passed, else the
    /// certificate the server sent after its leaf (none: they come out `invalid`). A list that does not
    /// parse gives no SCTs; the certificate's own are still read (see `SCTVerifier.peerSCTs`).
    func collectSCTs(_ ssl: OpaquePointer, trusted: Bool, keyring: CTLogKeyring, into facts: inout ProbeFacts) {
        let chain = trusted ? SSL_get0_verified_chain(ssl) : SSL_get_peer_cert_chain(ssl)
        let issuer = chain.flatMap { pg_sk_X509_num($0) > 1 ? pg_sk_X509_value($0, 1) : nil }
        facts.ct.collected = true
        facts.ct.scts = SCTVerifier.peerSCTs(of: ssl, issuer: issuer, keyring: keyring, at: Date())
    }

    /// The negotiated cipher suite as OpenSSL names it.
    static func cipher(of ssl: OpaquePointer) -> String? {
        guard let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher) else { return nil }
        return String(cString: name)
    }

    /// The negotiated key-exchange group: OpenSSL's short name for groups it has an object for (`X25519`,
    /// `prime256v1`, `secp384r1`), else the TLS name of a provider's group (a hybrid such as
    /// `X25519MLKEM768`); nil without one (TLS 1.2 RSA key exchange).
    static func group(of ssl: OpaquePointer) -> String? {
        let nid = pg_SSL_get_negotiated_group(ssl)
        guard nid != 0 else { return nil }
        if nid & pg_TLSEXT_nid_unknown() == 0, let name = OBJ_nid2sn(nid) { return String(cString: name) }
        return SSL_group_to_name(ssl, nid).map { String(cString: $0) }
    }
}
