import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP server on 127.0.0.1 that answers each connection with bytes of the test's own, as no real HTTP
/// server would: it reads the request head, then writes what `answer` gives, chunk by chunk, until the client
/// stops reading or the chunks run out, and closes. It counts the bytes the client took, so a test can bound
/// what a hostile server got the client to read.
public final class ScriptedPeer: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var taken = 0
    private var stopped = false

    /// Listens; each connection gets `answer()`'s chunks in turn (`nil` ends the answer and closes).
    public init(answer: @escaping @Sendable () -> AnyIterator<[UInt8]>) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve(answer) }
        thread.start()
    }

    /// Bytes the clients have taken so far.
    public var bytesTaken: Int { lock.withLock { taken } }

    /// Stops accepting (a connection being answered ends when its client goes).
    public func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve(_ answer: @escaping @Sendable () -> AnyIterator<[UInt8]>) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0, !lock.withLock({ stopped }) else { return }
            Thread { [self] in respond(on: connection, with: answer()) }.start()
        }
    }

    private func respond(on connection: Int32, with chunks: AnyIterator<[UInt8]>) {
        defer { close(connection) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]), head.count < 65_536, recv(connection, &byte, 1, 0) == 1 { head.append(byte) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for chunk in chunks {
            let sent = chunk.withUnsafeBytes { send(connection, $0.baseAddress, chunk.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            lock.withLock { taken += sent }
            guard sent == chunk.count else { return }
        }
    }
}
