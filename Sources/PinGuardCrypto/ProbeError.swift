import COpenSSL

/// An error from OpenSSL or the socket layer, carrying the library's own text and a code that says which
/// side failed: callers act on the code, never on the text.
public struct ProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, for callers that act on the kind of error rather than its text.
    public enum Code: Sendable, Equatable {
        /// OpenSSL on this side: a certificate or key file, the trust store, a library call.
        case general
        /// A target's client identity (`client_cert`, `client_key`, `client_pkcs12`) could not be loaded.
        case clientIdentity
        /// The network: resolution, connection, a timeout, the socket, or the peer closing the connection.
        case network
        /// The peer ended the TLS handshake with this alert (RFC 8446 §6 numbering: 40 handshake_failure,
        /// 116 certificate_required, ...).
        case peerAlert(Int32)

        /// Whether the failure lies with the network or the peer rather than with this side's crypto.
        public var isNetwork: Bool {
            switch self {
            case .network, .peerAlert: return true
            case .general, .clientIdentity: return false
            }
        }
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

    /// Drains this thread's OpenSSL error queue into one line, prefixed by `context`; coded `peerAlert` when
    /// the queue holds an alert the peer sent.
    package static func openSSL(_ context: String) -> ProbeError {
        let queued = OpenSSLErrorQueue.drainCodes()
        let message = queued.text.isEmpty ? context : "\(context): \(queued.text)"
        return ProbeError(message, code: queued.peerAlert.map(Code.peerAlert) ?? .general)
    }

    /// A failure of the network (`code` `.network`).
    package static func network(_ message: String) -> ProbeError { ProbeError(message, code: .network) }
}
