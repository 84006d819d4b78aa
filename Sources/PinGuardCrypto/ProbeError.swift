import COpenSSL

/// An error from OpenSSL or the socket layer, carrying the library's own text.
public struct ProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, for callers that act on the kind of error rather than its text.
    public enum Code: Sendable, Equatable {
        /// Anything not named below: the network, TLS, a certificate or key file, the trust store.
        case general
        /// A target's client identity (`client_cert`, `client_key`, `client_pkcs12`) could not be loaded.
        case clientIdentity
    }

    /// Human-readable cause, e.g. `connect to 127.0.0.1:1: Connection refused`.
    public var message: String
    /// What failed.
    public var code: Code

    /// Creates an error with a message.
    public init(_ message: String, code: Code = .general) {
        self.message = message
        self.code = code
    }

    /// The message.
    public var description: String { message }

    /// Drains this thread's OpenSSL error queue into one line, prefixed by `context`.
    package static func openSSL(_ context: String) -> ProbeError {
        let queued = OpenSSLErrorQueue.drain()
        return ProbeError(queued.isEmpty ? context : "\(context): \(queued)")
    }
}
