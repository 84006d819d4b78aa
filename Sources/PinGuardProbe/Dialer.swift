import Foundation
import PinGuardCore
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

    /// Connects to the first address of `host` that accepts before the deadline.
    /// Returns the non-blocking socket and the dialled address as `ip:port` (`[ip]:port` for IPv6).
    static func connect(host: String, port: Int, deadline: Deadline) throws(ProbeError) -> (Int32, String) {
        var name = host
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        let addresses = try Resolver.resolve(name, port: port, deadline: deadline)
        var lastError = "no address"
        for address in addresses {
            let text = address.description(port: port)
            if deadline.remainingMilliseconds == 0 {
                throw ProbeError("connect to \(text): timeout after \(PromDuration.format(deadline.seconds))")
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
        throw ProbeError(lastError)
    }

    /// Waits for `events` on `fd`, failing with a timeout error naming `phase` at the deadline.
    static func wait(fd: Int32, events: Int16, deadline: Deadline, phase: String) throws(ProbeError) {
        while true {
            let ms = deadline.remainingMilliseconds
            if ms == 0 { throw ProbeError("\(phase): timeout after \(PromDuration.format(deadline.seconds))") }
            if deadline.cancelled() { throw ProbeError("\(phase): cancelled") }
            var p = pollfd(fd: fd, events: events, revents: 0)
            // Short slices so that a cancelled probe (shutdown) ends promptly.
            let r = poll(&p, 1, min(ms, 100))
            if r == 0 { continue }
            if r > 0 { return }
            if r < 0 && errno != EINTR { throw ProbeError("\(phase): poll: \(String(cString: strerror(errno)))") }
        }
    }
}

/// A NUL-terminated C buffer as a Swift string.
func cText(_ buffer: [CChar]) -> String {
    buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// One resolved socket address, copied out of getaddrinfo's list.
struct ResolvedAddress: Sendable {
    var family: Int32
    var storage: sockaddr_storage
    var length: socklen_t

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    /// `ip:port`, or `[ip]:port` for IPv6.
    func description(port: Int) -> String {
        var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var copy = storage
        if family == AF_INET6 {
            withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                var a = p.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &a, &buf, socklen_t(buf.count))
            } }
            return "[\(cText(buf))]:\(port)"
        }
        withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
            var a = p.pointee.sin_addr
            _ = inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count))
        } }
        return "\(cText(buf)):\(port)"
    }
}

/// Name resolution bounded by the probe's deadline.
///
/// getaddrinfo has no timeout, so a name (not an address literal) is resolved on a short-lived thread;
/// at the deadline the probe gives up and the thread finishes on its own.
enum Resolver {
    final class Outcome: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<[ResolvedAddress], ProbeError> = .success([])
    }

    static func resolve(_ name: String, port: Int, deadline: Deadline) throws(ProbeError) -> [ResolvedAddress] {
        if Dialer.isIPLiteral(name) { return try lookup(name, port: port, numeric: true).get() }
        let outcome = Outcome()
        let thread = Thread {
            outcome.result = lookup(name, port: port, numeric: false)
            outcome.done.signal()
        }
        thread.start()
        while true {
            let ms = deadline.remainingMilliseconds
            if ms == 0 { throw ProbeError("resolve \(name): timeout after \(PromDuration.format(deadline.seconds))") }
            if deadline.cancelled() { throw ProbeError("resolve \(name): cancelled") }
            if outcome.done.wait(timeout: .now() + .milliseconds(Int(min(ms, 100)))) == .success {
                return try outcome.result.get()
            }
        }
    }

    static func lookup(_ name: String, port: Int, numeric: Bool) -> Result<[ResolvedAddress], ProbeError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        if numeric { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(name, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            return .failure(ProbeError("resolve \(name): \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(first) }
        var out: [ResolvedAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            guard let sa = ai.pointee.ai_addr else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { dst in
                dst.copyMemory(from: UnsafeRawBufferPointer(start: sa, count: Int(ai.pointee.ai_addrlen)))
            }
            out.append(ResolvedAddress(family: ai.pointee.ai_family, storage: storage, length: ai.pointee.ai_addrlen))
        }
        return .success(out)
    }
}
