import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Loopback TCP ports for test servers: free ones, closed ones, and waiting until one accepts.
public enum LoopbackPorts {
    /// Whether the host has an IPv6 loopback (a socket can bind `::1`).
    public static let ipv6Available: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var sa = sockaddr_in6.loopback(port: 0)
        return withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    /// A port that was free a moment ago on 127.0.0.1, and on ::1 too when `ipv6` is set and available.
    /// Another process may still take it first: starters retry with a new port when the server fails to bind.
    public static func free(ipv6: Bool = ipv6Available) -> Int {
        for _ in 0..<50 {
            guard let (fd, port) = bindIPv4(port: 0) else { continue }
            close(fd)
            if ipv6 && ipv6Available {
                guard let v6 = bindIPv6(port: port) else { continue }
                close(v6)
            }
            return port
        }
        return 0
    }

    /// A port on 127.0.0.1 that nothing listens on: connecting to it is refused.
    public static func closed() -> Int {
        guard let (fd, port) = bindIPv4(port: 0) else { return 1 }
        close(fd)  // bound but never listening, so the port is left free and unused
        return port
    }

    /// Polls until `host:port` accepts a TCP connection, up to `timeout` seconds, or `stillAlive` says the
    /// server died. Returns whether it accepted.
    public static func waitUntilAccepting(host: String = "127.0.0.1", port: Int, timeout: Double = 60,
                                          stillAlive: () -> Bool = { true }) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if accepts(host: host, port: port) { return true }
            if !stillAlive() { return false }
            usleep(20_000)
        }
        return false
    }

    /// Whether one TCP connection to `host:port` (an IPv4 or IPv6 literal) succeeds right now.
    public static func accepts(host: String, port: Int) -> Bool {
        let v6 = host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if v6 {
            var sa = sockaddr_in6.loopback(port: port)
            _ = inet_pton(AF_INET6, host, &sa.sin6_addr)
            return withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
                }
            }
        }
        var sa = sockaddr_in.loopback(port: port)
        _ = inet_pton(AF_INET, host, &sa.sin_addr)
        return withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Whether nothing is bound to `port` on any IPv4 address: binding 0.0.0.0:`port` succeeds right now
    /// (the socket is closed at once, never listening).
    public static func isFreeOnAllIPv4(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var sa = sockaddr_in.loopback(port: port)
        sa.sin_addr.s_addr = 0
        return withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A socket bound to 127.0.0.1:`port` (0 = any), with the port the kernel chose.
    static func bindIPv4(port: Int) -> (Int32, Int)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var sa = sockaddr_in.loopback(port: port)
        let ok = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard ok, let bound = boundPort(fd) else { close(fd); return nil }
        return (fd, bound)
    }

    /// A socket bound to [::1]:`port`.
    static func bindIPv6(port: Int) -> Int32? {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var sa = sockaddr_in6.loopback(port: port)
        let ok = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
        guard ok else { close(fd); return nil }
        return fd
    }

    /// The local port of a bound socket.
    static func boundPort(_ fd: Int32) -> Int? {
        var sa = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) == 0 }
        }
        return ok ? Int(UInt16(bigEndian: sa.sin_port)) : nil
    }
}

extension sockaddr_in {
    /// 127.0.0.1:`port`.
    static func loopback(port: Int) -> sockaddr_in {
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = UInt16(port).bigEndian
        sa.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return sa
    }
}

extension sockaddr_in6 {
    /// [::1]:`port`.
    static func loopback(port: Int) -> sockaddr_in6 {
        var sa = sockaddr_in6()
        sa.sin6_family = sa_family_t(AF_INET6)
        sa.sin6_port = UInt16(port).bigEndian
        sa.sin6_addr = in6addr_loopback
        return sa
    }
}
