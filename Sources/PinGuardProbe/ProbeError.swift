import COpenSSL

/// An error from OpenSSL or the socket layer, carrying the library's own text.
public struct ProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Human-readable cause, e.g. `connect to 127.0.0.1:1: Connection refused`.
    public var message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }

    /// Drains this thread's OpenSSL error queue into one line, prefixed by `context`.
    package static func openSSL(_ context: String) -> ProbeError {
        let queued = OpenSSLErrorQueue.drain()
        return ProbeError(queued.isEmpty ? context : "\(context): \(queued)")
    }
}
