import Foundation
import NIOCore
import PinGuardCore

/// Whether the endpoint's address can be listened on, checked before anything is probed: a port in use ends
/// the start with the address named, instead of an error after the first round has begun.
enum ListenCheck {
    /// nil when `address` can be bound now (as `MetricsServer` binds it), else why not, naming the address.
    static func problem(_ address: ListenAddress) -> String? {
        let hosts = address.host.map { [$0] } ?? ["::", "0.0.0.0"]
        var last = ""
        for host in hosts {
            let shown = host.contains(":") ? "[\(host)]:\(address.port)" : "\(host):\(address.port)"
            let socketAddress: SocketAddress
            do { socketAddress = try SocketAddress.makeAddressResolvingHost(host, port: address.port) } catch {
                last = "cannot listen on \(shown): \(error)"
                continue
            }
            guard let error = bindError(socketAddress) else { return nil }
            last = "cannot listen on \(shown): \(error)"
        }
        return last
    }

    /// The error of binding a fresh socket to `address` (then closed), nil when it binds.
    static func bindError(_ address: SocketAddress) -> String? {
        let fd = socket(Int32(address.protocol.rawValue), Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = address.withSockAddr { pointer, size in bind(fd, pointer, socklen_t(size)) }
        return rc == 0 ? nil : String(cString: strerror(errno)).lowercased()
    }
}
