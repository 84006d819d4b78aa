import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP connection to 127.0.0.1 from a chosen loopback source address (127.0.0.N), for clients that
/// misbehave on purpose: trickling a request head, asking for /metrics and never reading.
public final class LoopbackSocket: @unchecked Sendable {
    /// The socket.
    public let fd: Int32
    private var isOpen = true

    /// Connects from `source` (e.g. "127.0.0.2", so per-address limits see a different client);
    /// `receiveBuffer` sets SO_RCVBUF first (a small window: the server cannot push much).
    public init(port: Int, source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
            Glibc.close(fd)
            throw HarnessError("not an IPv4 address: \(source)")
        }
        var remote = sockaddr_in.loopback(port: port)
        let fd = self.fd
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        let connected = bound && withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            let e = errno
            Glibc.close(fd)
            isOpen = false
            throw HarnessError("connect \(source) -> 127.0.0.1:\(port): \(String(cString: strerror(e)))")
        }
    }

    deinit { close() }

    /// Closes the connection (once).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    /// Sends all of `text`; false when the connection failed.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// The first `count` bytes received, without consuming them (waits up to `timeout` seconds for them);
    /// the start of a response can be read without letting the server send the rest.
    public func peek(_ count: Int, timeout: Double) -> String {
        let end = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: count)
        var n = 0
        while Date() < end {
            n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
            if n >= count || n == 0 { break }
            usleep(20_000)
        }
        return String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
    }

    /// Whether the server has closed the connection (end of file or an error) within `timeout` seconds (0: look
    /// once); bytes it sends meanwhile are read and dropped.
    public func closedByServer(within timeout: Double) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = end.timeIntervalSinceNow
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&p, 1, Int32(max(0, left) * 1000)) > 0 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n == 0 { return true }
                if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return true }
                continue
            }
            if left <= 0 { return false }
        }
    }

    /// One response: status, headers (names lowercased) and the number of body bytes read (up to
    /// Content-Length); nil when no complete header block arrives within `timeout`.
    public func readResponse(timeout: Double) -> (status: Int, headers: [String: String], bodyBytes: Int)? {
        let end = Date().addingTimeInterval(timeout)
        var head: [UInt8] = []
        var parsed: (status: Int, headers: [String: String])?
        var body = 0
        var buffer = [UInt8](repeating: 0, count: 262_144)
        while Date() < end {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&p, 1, Int32(max(1, end.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
            if n <= 0 { break }
            if parsed != nil {
                body += n
            } else {
                head += buffer[0..<n]
                guard let split = Self.headerEnd(head) else { continue }
                let lines = String(decoding: head[..<split], as: UTF8.self).components(separatedBy: "\r\n")
                let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                parsed = (status, headers)
                body = head.count - split - 4
            }
            if let length = parsed?.headers["content-length"].flatMap(Int.init), body >= length { break }
        }
        guard let parsed else { return nil }
        return (parsed.status, parsed.headers, body)
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}
