import COpenSSL

/// An error from OpenSSL or the socket layer, carrying the library's own text.
public struct ProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Human-readable cause, e.g. `connect to 127.0.0.1:1: Connection refused`.
    public var message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// Drains this thread's OpenSSL error queue into one line, prefixed by `context`.
    static func openSSL(_ context: String) -> ProbeError {
        let queued = OpenSSLErrorQueue.drain()
        return ProbeError(queued.isEmpty ? context : "\(context): \(queued)")
    }
}

/// OpenSSL's per-thread error queue.
enum OpenSSLErrorQueue {
    /// Empties the queue so that the next failure reports only its own errors.
    static func clear() { ERR_clear_error() }

    /// Removes every queued error and joins their texts with `; `.
    static func drain() -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = cText(buffer)
            if !parts.contains(text) { parts.append(text) }
        }
        return parts.joined(separator: "; ")
    }
}
