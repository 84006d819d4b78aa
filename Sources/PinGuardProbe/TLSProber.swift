import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardFiles
#if canImport(Glibc)
import Glibc
#endif

/// Performs TLS handshakes with system OpenSSL and reports the chain facts; never judges pins.
///
/// One prober owns one `SSL_CTX` whose trust store (system default or a CA file) is loaded once and
/// shared by every probe; probes may run concurrently from many threads. A chain served again for the
/// same name is not verified again while its certificates' validity is unchanged: every handshake runs in
/// full, and takes the earlier verification's result and chain.
public final class TLSProber: @unchecked Sendable {
    private let context: OpaquePointer
    /// The CA file in use, or nil for the system trust store.
    public let caFile: String?
    /// The CT logs SCTs are checked against; nil when no SCTs are collected.
    public let ctLogs: CTLogKeyring?
    /// Earlier verifications of served chains against this prober's trust store, reused by handshakes
    /// that are served the same chain for the same name.
    let verifications: VerificationCache
    /// The facts of the certificates probes have read, by their bytes.
    let certificates = CertificateFactsCache()
    /// The path each client builds from the served chain, when policy sets name clients; nil: none judged.
    public let clientPaths: ClientPathJudge?

    /// Creates a prober; throws when the CA file cannot be read or holds no certificate. With `ctLogs` every
    /// probe also collects the server's SCTs and checks them against those logs.
    /// With `clientPaths` every probe also builds the path of each client of its stores.
    public convenience init(caFile: String? = nil, ctLogs: CTLogKeyring? = nil, clientPaths: ClientPathJudge? = nil) throws(ProbeError) {
        try self.init(caFile: caFile, ctLogs: ctLogs, clientPaths: clientPaths, now: { Date() })
    }

    /// A prober whose verification cache judges its entries' validity at `now` (tests move it).
    init(caFile: String?, ctLogs: CTLogKeyring?, clientPaths: ClientPathJudge? = nil,
         now: @escaping @Sendable () -> Date) throws(ProbeError) {
        // A peer that closes mid-handshake must not kill the process through SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        OpenSSLErrorQueue.clear()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else { throw ProbeError.openSSL("SSL_CTX_new") }
        _ = pg_SSL_CTX_set_min_proto_version(ctx, pg_TLS1_2_VERSION())
        if let caFile {
            // OpenSSL opens the file itself, blocking: a FIFO or device must be refused before.
            do throws(RegularFileError) { try RegularFile.check(caFile) } catch {
                SSL_CTX_free(ctx)
                throw ProbeError("trust.ca_file \(error)")
            }
            guard SSL_CTX_load_verify_locations(ctx, caFile, nil) == 1 else {
                SSL_CTX_free(ctx)
                throw ProbeError.openSSL("trust.ca_file \(caFile): cannot load CA certificates")
            }
        } else if SSL_CTX_set_default_verify_paths(ctx) != 1 {
            SSL_CTX_free(ctx)
            throw ProbeError.openSSL("cannot load the system trust store")
        }
        if ctLogs != nil { try TLSProber.requestSCTs(ctx) }
        verifications = VerificationCache.install(on: ctx, now: now)
        context = ctx
        self.caFile = caFile
        self.ctLogs = ctLogs
        self.clientPaths = clientPaths
    }

    deinit { SSL_CTX_free(context) }

    /// The OpenSSL version string, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
    public static var openSSLVersion: String { String(cString: OpenSSL_version(Int32(OPENSSL_VERSION))) }

    /// Probes the first address of the request's name (or `connect` list) that accepts a connection, as one
    /// client connection would. Blocking: call it from a thread that may block. Never throws: a failure is a
    /// `ProbeFacts` with `error` set and whatever was learned before it.
    ///
    /// - Parameter cancelled: polled while waiting on the network; returning true ends the probe early.
    public func probe(_ request: ProbeRequest, cancelled: @escaping @Sendable () -> Bool = { false }) -> ProbeFacts {
        let start = Date()
        let deadline = Deadline(seconds: request.timeout, cancelled: cancelled)
        var first = request
        first.resolve = .first
        let resolved = Resolver.resolve(first, deadline: deadline)
        guard resolved.resolution.error == nil else {
            return ProbeFacts(host: HostPattern.normalize(request.host), port: request.port, error: resolved.resolution.error,
                              duration: Date().timeIntervalSince(start), finishedAt: Date())
        }
        return probe(request, dialing: resolved.dial, deadline: deadline, start: start)
    }

    /// Probes the first of `addresses` that accepts a connection, within `request.timeout`.
    public func probe(_ request: ProbeRequest, firstOf addresses: [ResolvedAddress],
                      cancelled: @escaping @Sendable () -> Bool = { false }) -> ProbeFacts {
        probe(request, dialing: addresses, deadline: Deadline(seconds: request.timeout, cancelled: cancelled), start: Date())
    }

    /// Probes one resolved address with its own deadline of `request.timeout` (connect + handshake).
    public func probe(_ request: ProbeRequest, at address: ResolvedAddress,
                      cancelled: @escaping @Sendable () -> Bool = { false }) -> ProbeFacts {
        probe(request, dialing: [address], deadline: Deadline(seconds: request.timeout, cancelled: cancelled), start: Date())
    }

    /// Resolves the request's endpoints within `request.timeout`.
    public func resolve(_ request: ProbeRequest, cancelled: @escaping @Sendable () -> Bool = { false }) -> ResolvedTarget {
        Resolver.resolve(request, deadline: Deadline(seconds: request.timeout, cancelled: cancelled))
    }

    /// Resolves the request and probes its addresses: with `resolve: all` each one (concurrently, each
    /// with its own deadline), with `resolve: first` the first that answers.
    public func probeTarget(_ request: ProbeRequest, cancelled: @escaping @Sendable () -> Bool = { false }) -> TargetProbe {
        let start = Date()
        let deadline = Deadline(seconds: request.timeout, cancelled: cancelled)
        let resolved = Resolver.resolve(request, deadline: deadline)
        let host = HostPattern.normalize(request.host)
        guard resolved.resolution.error == nil else {
            return TargetProbe(resolution: resolved.resolution, nodes: [], host: host, port: request.port, at: Date())
        }
        if request.resolve == .first {
            let facts = probe(request, dialing: resolved.dial, deadline: deadline, start: start)
            return TargetProbe(resolution: resolved.resolution, nodes: [facts], host: host, port: request.port, at: Date())
        }
        let dial = resolved.dial
        let results = NodeSlots(count: dial.count)
        DispatchQueue.concurrentPerform(iterations: dial.count) { i in
            results.set(i, probe(request, at: dial[i], cancelled: cancelled))
        }
        return TargetProbe(resolution: resolved.resolution, nodes: results.values, host: host, port: request.port, at: Date())
    }

    private func probe(_ request: ProbeRequest, dialing addresses: [ResolvedAddress], deadline: Deadline, start: Date) -> ProbeFacts {
        var facts = ProbeFacts(host: HostPattern.normalize(request.host), port: request.port, finishedAt: start)
        facts.clientAuth = ClientAuthRecorder(identity: request.clientIdentity).facts
        do throws(ProbeError) {
            let (fd, address) = try Dialer.connect(to: addresses, port: request.port, deadline: deadline)
            defer { close(fd) }
            facts.address = address
            try handshake(fd: fd, request: request, deadline: deadline, into: &facts)
        } catch {
            facts.error = error.message
            if facts.address == nil, addresses.count == 1 { facts.address = addresses[0].description(port: request.port) }
        }
        facts.finishedAt = Date()
        facts.duration = facts.finishedAt.timeIntervalSince(start)
        return facts
    }

    private func handshake(fd: Int32, request: ProbeRequest, deadline: Deadline,
                           into facts: inout ProbeFacts) throws(ProbeError) {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let ssl = SSL_new(context) else { throw ProbeError.openSSL("SSL_new") }
        defer { SSL_free(ssl) }
        _ = SSL_set_fd(ssl, fd)
        let clientAuth = ClientAuthRecorder(identity: request.clientIdentity)
        clientAuth.install(on: ssl)
        defer { facts.clientAuth = clientAuth.facts }
        _ = pg_SSL_set_verify_none(ssl)  // complete the handshake; judge trust from the verify result
        let host = facts.host
        if !Dialer.isIPLiteral(host) { _ = pg_SSL_set_tlsext_host_name(ssl, host) }
        ServerVerification.setIdentity(SSL_get0_param(ssl), host: host)
        handshaking: while true {
            let r = SSL_connect(ssl)
            if r == 1 { break }
            let code = SSL_get_error(ssl, r)
            let events: Int16
            switch code {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            default:
                let error: ProbeError
                if code == SSL_ERROR_SYSCALL {
                    let queued = OpenSSLErrorQueue.drain()
                    let cause = !queued.isEmpty ? queued : (errno != 0 ? String(cString: strerror(errno)) : "peer closed the connection")
                    error = ProbeError.network("TLS handshake with \(facts.address ?? host): \(cause)")
                } else {
                    error = ProbeError.openSSL("TLS handshake with \(facts.address ?? host)")
                }
                // A server can end the handshake after it sent its certificates (it demands a client
                // certificate, say): the chain was retrieved, so it is judged like any other, and the failure
                // is reported beside it. A failure found on this side (a bad server signature) is not the
                // server's choice: a client rejects that connection, so the probe fails.
                let serverEnded = code == SSL_ERROR_SYSCALL || code == SSL_ERROR_ZERO_RETURN || error.code.isNetwork
                guard serverEnded, let sent = SSL_get_peer_cert_chain(ssl), pg_sk_X509_num(sent) > 0 else { throw error }
                facts.handshakeError = error.message
                break handshaking
            }
            try Dialer.wait(fd: fd, events: events, deadline: deadline, phase: "TLS handshake with \(facts.address ?? host)")
        }
        facts.tlsVersion = String(cString: SSL_get_version(ssl))
        facts.tlsCipher = TLSProber.cipher(of: ssl)
        facts.tlsGroup = TLSProber.group(of: ssl)
        let served = SSL_get_peer_cert_chain(ssl)
        if let served { facts.servedChain = try chain(served) }
        let verify = SSL_get_verify_result(ssl)
        facts.trusted = verify == X509_V_OK
        if facts.trusted, let verified = SSL_get0_verified_chain(ssl) {
            // The verified chain holds the very X509 objects the server sent, plus the anchor from the
            // store: reuse the served facts (no second parse, shared strings) and mark the rest `store`.
            var servedIndex: [OpaquePointer: Int] = [:]
            if let served {
                for i in 0..<pg_sk_X509_num(served) { if let x = pg_sk_X509_value(served, i) { servedIndex[x] = Int(i) } }
            }
            var v: [ChainCertificate] = []
            for i in 0..<pg_sk_X509_num(verified) {
                guard let x = pg_sk_X509_value(verified, i) else { continue }
                if let j = servedIndex[x] {
                    var c = facts.servedChain[j]
                    c.depth = Int(i)
                    v.append(c)
                } else {
                    // With trusted-first lookup the anchor is the store's copy even when the server sent it too.
                    var c = try certificates.facts(of: x, depth: Int(i), source: .store)
                    if facts.servedChain.contains(where: { $0.certSHA256 == c.certSHA256 }) { c.source = .served }
                    v.append(c)
                }
            }
            facts.verifiedChain = v
        } else if !facts.trusted {
            facts.trustError = String(cString: X509_verify_cert_error_string(verify))
        }
        if facts.servedChain.isEmpty { throw ProbeError("TLS handshake with \(host): the server sent no certificate") }
        if let clientPaths, let served {
            let stack = (0..<pg_sk_X509_num(served)).compactMap { pg_sk_X509_value(served, $0) }
            facts.clientPaths = try clientPaths.paths(of: stack, servedFacts: facts.servedChain, host: host,
                                                      at: verifications.now()) { x, depth, source throws(ProbeError) in
                try certificates.facts(of: x, depth: depth, source: source)
            }
        }
        if let ctLogs { collectSCTs(ssl, trusted: facts.trusted, keyring: ctLogs, into: &facts) }
    }

    private func chain(_ stack: OpaquePointer) throws(ProbeError) -> [ChainCertificate] {
        var out: [ChainCertificate] = []
        let count = pg_sk_X509_num(stack)
        for i in 0..<count {
            guard let x = pg_sk_X509_value(stack, i) else { continue }
            out.append(try certificates.facts(of: x, depth: Int(i), source: .served))
        }
        return out
    }
}
