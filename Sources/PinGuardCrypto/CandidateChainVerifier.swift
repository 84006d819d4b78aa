import COpenSSL
import Foundation
import PinGuardCore
import PinGuardFiles
#if canImport(Glibc)
import Glibc
#endif

/// Verifies a chain that is not served yet (a renewal staged for deployment) as a client would verify it
/// when a server presents it: against the system trust store or a CA file, for a host name, at a time, by the
/// handshake's rules (`ServerVerification`), so a chain judged here is judged as `probe` judges it served.
///
/// The result has the shape of a probe's facts, so the core judges it exactly like a probed chain.
public enum CandidateChainVerifier {
    /// Parses every certificate of `files` (PEM bundles or DER; the first certificate is the leaf, the
    /// rest in order form the chain) and verifies it for `host` at `time`; with `ctLogs`, also reads the
    /// leaf's embedded SCTs, checked with those keys.
    /// With `clientPaths`, the path each client of its stores builds is judged too, as a probe judges it.
    public static func verify(_ files: [(bytes: [UInt8], name: String)], host: String, caFile: String?,
                              at time: Date, ctLogs: CTLogKeyring? = nil, clientPaths: ClientPathJudge? = nil) throws(ProbeError) -> ProbeFacts {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let (certificates, served) = try parsed(files)
        defer { certificates.forEach { X509_free($0) } }
        guard let leaf = certificates.first else { throw ProbeError("no certificate in the candidate chain") }

        let store = try TrustStore.make(caFile: caFile)
        defer { X509_STORE_free(store) }
        guard let untrusted = pg_sk_X509_new_null() else { throw ProbeError.openSSL("certificate stack") }
        defer { pg_sk_X509_free(untrusted) }
        for x in certificates.dropFirst() { _ = pg_sk_X509_push(untrusted, x) }
        guard let context = X509_STORE_CTX_new() else { throw ProbeError.openSSL("verification context") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf, untrusted) == 1 else { throw ProbeError.openSSL("verification context") }
        ServerVerification.prepare(context, host: host)
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(clamping: Int64(time.timeIntervalSince1970.rounded(.down))))

        var facts = ProbeFacts(host: host, port: 443, servedChain: served, finishedAt: time)
        if let clientPaths { facts.clientPaths = try paths(of: certificates, served: served, host: host, judge: clientPaths, at: time) }
        facts.trusted = X509_verify_cert(context) == 1
        if facts.trusted, let chain = X509_STORE_CTX_get1_chain(context) {
            defer { pg_sk_X509_pop_free(chain) }
            if let ctLogs {
                facts.ct.collected = true
                let issuer = pg_sk_X509_num(chain) > 1 ? pg_sk_X509_value(chain, 1) : nil
                facts.ct.scts = embeddedSCTs(of: certificates, verifiedIssuer: issuer, keyring: ctLogs, at: time)
            }
            let servedHashes = Set(served.map(\.certSHA256))
            for i in 0..<pg_sk_X509_num(chain) {
                guard let x = pg_sk_X509_value(chain, i) else { continue }
                var c = try CertificateReader.facts(of: x, depth: Int(i), source: .served)
                if !servedHashes.contains(c.certSHA256) { c.source = .store }
                facts.verifiedChain.append(c)
            }
        } else {
            let code = X509_STORE_CTX_get_error(context)
            facts.trustError = String(cString: X509_verify_cert_error_string(Int(code)))
        }
        return facts
    }
}

extension CandidateChainVerifier {
    /// The paths each client of `judge` builds from the chain of `files` (leaf first) at `time`, no host name
    /// checked: what `lint --chain` judges a chain on without a name to serve it under.
    public static func clientPaths(_ files: [(bytes: [UInt8], name: String)], judge: ClientPathJudge,
                                   at time: Date) throws(ProbeError) -> ProbeFacts {
        let (certificates, served) = try parsed(files)
        defer { certificates.forEach { X509_free($0) } }
        var facts = ProbeFacts(host: "", port: 443, servedChain: served, finishedAt: time)
        facts.clientPaths = try paths(of: certificates, served: served, host: nil, judge: judge, at: time)
        return facts
    }

    /// Every certificate of `files`, in order, with its facts as served; the caller frees the certificates.
    static func parsed(_ files: [(bytes: [UInt8], name: String)]) throws(ProbeError) -> (certificates: [OpaquePointer], served: [ChainCertificate]) {
        var certificates: [OpaquePointer] = []
        do throws(ProbeError) {
            for file in files { certificates += try CertificateFile.parse(file.bytes, name: file.name) }
            var served: [ChainCertificate] = []
            for (i, x) in certificates.enumerated() { served.append(try CertificateReader.facts(of: x, depth: i, source: .served)) }
            return (certificates, served)
        } catch {
            certificates.forEach { X509_free($0) }
            throw error
        }
    }

    /// `judge`'s paths of the parsed chain, the facts of store certificates read as the chain's were.
    static func paths(of certificates: [OpaquePointer], served: [ChainCertificate], host: String?, judge: ClientPathJudge,
                      at time: Date) throws(ProbeError) -> ClientPaths {
        try judge.paths(of: certificates, servedFacts: served, host: host, at: time) { x, depth, source throws(ProbeError) in
            try CertificateReader.facts(of: x, depth: depth, source: source)
        }
    }
}
