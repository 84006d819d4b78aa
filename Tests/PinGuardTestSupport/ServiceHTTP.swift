import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP response as read off the wire.
public struct HTTPReply: Sendable, CustomStringConvertible {
    /// Status code, e.g. 200.
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body (the bytes after the header block, up to `Content-Length` when given).
    public var body: String

    public var description: String { "HTTP \(status) \(headers) \(body.prefix(300))" }
}

/// A minimal blocking HTTP/1.1 client over raw TCP to 127.0.0.1, so tests can also send what no real client
/// would: malformed request lines, bodies over the server's limit.
public enum ServiceHTTP {
    /// Sends `bytes` as they are and reads the reply until the server closes or `Content-Length` is satisfied.
    /// Throws when nothing parseable arrives within `timeout` seconds.
    public static func exchange(port: Int, bytes: [UInt8], timeout: Double = 30) throws -> HTTPReply {
        let received = try transfer(port: port, bytes: bytes, timeout: timeout) { received in
            guard let reply = parse(received), let length = reply.headers["content-length"].flatMap(Int.init) else { return false }
            return reply.body.utf8.count >= length
        }
        guard let reply = parse(received) else {
            throw HarnessError("no HTTP reply from 127.0.0.1:\(port) (got \(received.count) bytes: \(String(decoding: received.prefix(200), as: UTF8.self)))")
        }
        return reply
    }

    /// Sends `bytes` and returns everything the server sends until it closes the connection (or `timeout`).
    public static func raw(port: Int, bytes: [UInt8], timeout: Double = 30) throws -> String {
        String(decoding: try transfer(port: port, bytes: bytes, timeout: timeout) { _ in false }, as: UTF8.self)
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, reads until `done`, the server closes, or `timeout`.
    static func transfer(port: Int, bytes: [UInt8], timeout: Double, done: ([UInt8]) -> Bool) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var tv = timeval()
        tv.tv_sec = type(of: tv.tv_sec).init(timeout.rounded(.down))
        tv.tv_usec = type(of: tv.tv_usec).init((timeout - timeout.rounded(.down)) * 1e6)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var sa = sockaddr_in.loopback(port: port)
        let connected = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw HarnessError("connect 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before reading everything (e.g. a 4xx for an oversized body).
            if n <= 0 { break }
            sent += n
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += chunk[0..<n]
            if done(received) { break }
        }
        return received
    }

    /// `METHOD path` with `Connection: close` and an optional body.
    public static func request(port: Int, method: String, path: String, body: [UInt8] = [], headers: [String] = [],
                               timeout: Double = 30) throws -> HTTPReply {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for h in headers { head += h + "\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try exchange(port: port, bytes: Array(head.utf8) + body, timeout: timeout)
    }

    /// `GET path`.
    public static func get(port: Int, _ path: String, timeout: Double = 30) throws -> HTTPReply {
        try request(port: port, method: "GET", path: path, timeout: timeout)
    }

    /// Parses a complete header block and whatever body followed; nil until the header block is complete.
    static func parse(_ bytes: [UInt8]) -> HTTPReply? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4, let split = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            return nil
        }
        let head = String(decoding: bytes[..<split], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPReply(status: status, headers: headers, body: String(decoding: bytes[(split + 4)...], as: UTF8.self))
    }
}
