import Foundation
import PinGuardCore
#if canImport(Glibc)
import Glibc
#endif

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
