import Foundation
import PinGuardCore
import PinGuardCrypto
#if canImport(Glibc)
import Glibc
#endif

/// One resolved socket address, copied out of getaddrinfo's list.
public struct ResolvedAddress: Sendable {
    var family: Int32
    var storage: sockaddr_storage
    var length: socklen_t

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    /// Whether this is an IPv6 address.
    public var isIPv6: Bool { family == AF_INET6 }

    /// The address bytes (4 for IPv4, 16 for IPv6), for ordering and range checks.
    public var bytes: [UInt8] {
        var copy = storage
        if family == AF_INET6 {
            return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                withUnsafeBytes(of: p.pointee.sin6_addr) { Array($0) }
            } }
        }
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
            withUnsafeBytes(of: p.pointee.sin_addr) { Array($0) }
        } }
    }

    /// `ip:port`, or `[ip]:port` for IPv6.
    public func description(port: Int) -> String {
        isIPv6 ? "[\(ipText)]:\(port)" : "\(ipText):\(port)"
    }

    /// The address alone, as text (`192.0.2.1`, `2001:db8::1`).
    public var ipText: String {
        var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var copy = storage
        if family == AF_INET6 {
            withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                var a = p.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &a, &buf, socklen_t(buf.count))
            } }
            return cText(buf)
        }
        withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
            var a = p.pointee.sin_addr
            _ = inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count))
        } }
        return cText(buf)
    }
}
