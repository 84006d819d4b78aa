import COpenSSL
import Foundation
import PinGuardCrypto
#if canImport(Glibc)
import Glibc
#endif

/// A minimal TLS server on 127.0.0.1 for the built-in demo: completes handshakes with a fixed chain and hangs up.
///
/// One thread per server, blocking accept; stopping closes the listening socket.
public final class LoopbackTLSServer: @unchecked Sendable {
    private let context: OpaquePointer
    private let listener: Int32
    /// The port it listens on.
    public let port: Int
    private let leaf: DemoCertificate
    private let chain: DemoCertificate?

    /// Starts serving `leaf` (and `chain`, usually the intermediate) on an ephemeral loopback port.
    public init(leaf: DemoCertificate, chain: DemoCertificate?) throws(ProbeError) {
        signal(SIGPIPE, SIG_IGN)
        OpenSSLErrorQueue.clear()
        guard let ctx = CertificateBuilder.serverContext(leaf: leaf.pointer, key: leaf.key.pointer, chain: chain?.pointer) else {
            throw ProbeError.openSSL("TLS server context")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            SSL_CTX_free(ctx)
            throw ProbeError("demo TLS server: \(why)")
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        context = ctx
        listener = fd
        self.leaf = leaf
        self.chain = chain
        let thread = Thread { [self] in self.serve() }
        thread.name = "pinguard-demo-tls-\(port)"
        thread.start()
    }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                // Closed here, by the thread that accepts on it, never by `stop()`: a descriptor closed while
                // this thread is serving a client could be reused by another server's socket before it
                // accepts again, and it would answer that server's clients with this leaf.
                close(listener)
                return
            }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if let ssl = SSL_new(context) {
                _ = SSL_set_fd(ssl, client)
                if SSL_accept(ssl) == 1 { _ = SSL_shutdown(ssl) }
                SSL_free(ssl)
            }
            ERR_clear_error()
            close(client)
        }
    }

    /// Stops accepting connections: the listening socket is shut down, and the serving thread closes it once
    /// its `accept` fails.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { SSL_CTX_free(context) }
}
