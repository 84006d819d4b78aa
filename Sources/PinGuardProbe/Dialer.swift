import Foundation
import PinGuardCore
import PinGuardCrypto
#if canImport(Glibc)
import Glibc
#endif

/// Resolves and connects TCP sockets with one deadline, IPv4 and IPv6.
enum Dialer {
    /// Whether `host` is an IPv4 or IPv6 literal.
    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Connects to the first of `addresses` that accepts before the deadline.
    /// Returns the non-blocking socket and the dialled address as `ip:port` (`[ip]:port` for IPv6).
    static func connect(to addresses: [ResolvedAddress], port: Int, deadline: Deadline) throws(ProbeError) -> (Int32, String) {
        var lastError = "no address"
        for address in addresses {
            let text = address.description(port: port)
            if deadline.remainingMilliseconds == 0 {
                throw ProbeError.network("connect to \(text): timeout after \(PromDuration.format(deadline.seconds))")
            }
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { lastError = "socket: \(String(cString: strerror(errno)))"; continue }
            let r = address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if r == 0 { return (fd, text) }
            if errno != EINPROGRESS {
                lastError = "connect to \(text): \(String(cString: strerror(errno)))"
                close(fd)
                continue
            }
            do {
                try wait(fd: fd, events: Int16(POLLOUT), deadline: deadline, phase: "connect to \(text)")
            } catch {
                close(fd)
                throw error
            }
            var soError: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
            if soError == 0 { return (fd, text) }
            lastError = "connect to \(text): \(String(cString: strerror(soError)))"
            close(fd)
        }
        throw ProbeError.network(lastError)
    }

    /// Waits for `events` on `fd`, failing with a timeout error naming `phase` at the deadline.
    static func wait(fd: Int32, events: Int16, deadline: Deadline, phase: String) throws(ProbeError) {
        while true {
            let ms = deadline.remainingMilliseconds
            if ms == 0 { throw ProbeError.network("\(phase): timeout after \(PromDuration.format(deadline.seconds))") }
            if deadline.cancelled() { throw ProbeError.network("\(phase): cancelled") }
            var p = pollfd(fd: fd, events: events, revents: 0)
            // Short slices so that a cancelled probe (shutdown) ends promptly.
            let r = poll(&p, 1, min(ms, 100))
            if r == 0 { continue }
            if r > 0 { return }
            if r < 0 && errno != EINTR { throw ProbeError.network("\(phase): poll: \(String(cString: strerror(errno)))") }
        }
    }
}
