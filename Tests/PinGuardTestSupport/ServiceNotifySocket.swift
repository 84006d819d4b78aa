import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A unix datagram socket standing in for systemd's `NOTIFY_SOCKET`: collects every `sd_notify` message a
/// service sends (`READY=1`, `STATUS=…`, `WATCHDOG=1`, …), with the time it arrived.
public final class NotifySocket: @unchecked Sendable {
    /// One datagram.
    public struct Message: Sendable {
        /// The text, e.g. `READY=1\nSTATUS=serving`.
        public var text: String
        /// When it arrived.
        public var received: Date

        /// The `KEY=value` assignments of the message.
        public var assignments: [String: String] {
            var out: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let eq = line.firstIndex(of: "=") else { continue }
                out[String(line[..<eq])] = String(line[line.index(after: eq)...])
            }
            return out
        }
    }

    /// The socket's path: the value for `NOTIFY_SOCKET`.
    public let path: String
    private let state: State

    /// Binds a fresh socket in a temporary folder and starts collecting.
    public init() throws {
        let dir = try TemporaryDirectory.make("pinguard-notify")
        path = dir.appendingPathComponent("notify.sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket(AF_UNIX): \(String(cString: strerror(errno)))") }
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: sa.sun_path) else {
            close(fd)
            throw HarnessError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let ok = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        guard ok else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw HarnessError("bind \(path): \(why)")
        }
        let state = State(fd: fd, path: path)
        self.state = state
        let thread = Thread { state.collect() }
        thread.name = "NotifySocket"
        thread.start()
    }

    deinit { stop() }

    /// Every message so far, in arrival order.
    public var messages: [Message] { state.messages }

    /// Messages that assign `key` (e.g. `READY`), in arrival order.
    public func messages(assigning key: String) -> [Message] { messages.filter { $0.assignments[key] != nil } }

    /// Polls until `done` holds for the messages so far, up to `timeout` seconds; returns whether it held.
    @discardableResult
    public func wait(timeout: Double, until done: ([Message]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if done(messages) { return true }
            usleep(20_000)
        }
        return done(messages)
    }

    /// Stops collecting, closes and removes the socket; idempotent.
    public func stop() { state.stop() }

    /// The socket, what it received and the stop flag, shared with the collecting thread.
    final class State: @unchecked Sendable {
        private let lock = NSLock()
        private let fd: Int32
        private let path: String
        private var received: [Message] = []
        private var stopped = false
        private var finished = false

        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }

        var messages: [Message] { lock.withLock { received } }

        func collect() {
            defer {
                lock.withLock {
                    close(fd)
                    unlink(path)
                    finished = true
                }
            }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !lock.withLock({ stopped }) {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    let message = Message(text: String(decoding: buffer[0..<n], as: UTF8.self), received: Date())
                    lock.withLock { received.append(message) }
                }
            }
        }

        func stop() {
            lock.withLock { stopped = true }
            while !lock.withLock({ finished }) { usleep(5_000) }
        }
    }
}
