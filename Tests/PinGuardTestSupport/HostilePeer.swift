import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A misbehaving TCP server on 127.0.0.1, run in-process on its own thread: what a probe meets when a
/// port is not the TLS server it should be.
public final class HostilePeer: @unchecked Sendable {
    /// What the peer does with each connection it accepts.
    public enum Behaviour: Sendable {
        /// Accepts and never sends a byte, holding the connection open: a probe must give up at its deadline.
        case silent
        /// Sends these bytes as soon as the connection is accepted, then closes its side for writing.
        case garbage([UInt8])
        /// Closes each connection as soon as it is accepted (the client reads end-of-file).
        case closeImmediately
        /// Resets each connection as soon as it is accepted (SO_LINGER 0: the client gets ECONNRESET).
        case reset

        /// An SSH banner followed by pseudo-random bytes: not a TLS record.
        public static var sshBannerAndNoise: Behaviour {
            var g = SystemRandomNumberGenerator()
            let noise = (0..<512).map { _ in UInt8.random(in: 0...255, using: &g) }
            return .garbage(Array("SSH-2.0-OpenSSH_9.6 not-tls\r\n".utf8) + noise)
        }
    }

    /// The port it listens on.
    public let port: Int
    private let state: State

    /// Starts listening on a free loopback port and serving connections with `behaviour`.
    public init(_ behaviour: Behaviour) throws {
        guard let (fd, port) = LoopbackPorts.bindIPv4(port: 0) else { throw HarnessError("cannot bind 127.0.0.1:0") }
        guard listen(fd, 128) == 0 else {
            close(fd)
            throw HarnessError("listen: \(String(cString: strerror(errno)))")
        }
        self.port = port
        let state = State(listener: fd)
        self.state = state
        let thread = Thread { state.serve(behaviour) }
        thread.name = "HostilePeer:\(port)"
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting and closes every connection it holds; idempotent.
    public func stop() { state.stop() }

    /// How many connections the peer accepted so far.
    public var acceptedConnections: Int { state.accepted }

    /// Closes every connection it holds now (a probe hanging on one fails at once) and goes on accepting.
    public func dropConnections() { state.dropConnections() }

    /// The listener, its connections and the stop flag, shared with the serving thread.
    final class State: @unchecked Sendable {
        private let lock = NSLock()
        private let listener: Int32
        private var connections: [Int32] = []
        private var stopped = false
        private var finished = false
        private(set) var accepted = 0

        init(listener: Int32) { self.listener = listener }

        func serve(_ behaviour: Behaviour) {
            defer {
                lock.withLock {
                    for c in connections { close(c) }
                    connections = []
                    close(listener)
                    finished = true
                }
            }
            while !lock.withLock({ stopped }) {
                var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { continue }
                let c = accept(listener, nil, nil)
                if c < 0 { continue }
                _ = fcntl(c, F_SETFD, FD_CLOEXEC)
                lock.withLock {
                    connections.append(c)
                    accepted += 1
                }
                switch behaviour {
                case .silent:
                    break
                case .garbage(let bytes):
                    _ = bytes.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    shutdown(c, Int32(SHUT_WR))
                case .closeImmediately:
                    shutdown(c, Int32(SHUT_RDWR))
                case .reset:
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    _ = setsockopt(c, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                    lock.withLock {
                        connections.removeAll { $0 == c }
                        close(c)
                    }
                }
            }
        }

        func dropConnections() {
            lock.withLock {
                for c in connections { close(c) }
                connections = []
            }
        }

        func stop() {
            lock.withLock { stopped = true }
            while !lock.withLock({ finished }) { usleep(5_000) }
        }
    }
}
