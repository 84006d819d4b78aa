import Foundation

/// What a probe learned about TLS client authentication (mTLS): whether the server asked for a client
/// certificate (a CertificateRequest), whether one was sent, and the configured identity's certificate.
public struct ClientAuthFacts: Sendable, Equatable {
    /// The server sent a CertificateRequest.
    public var requested: Bool
    /// A client certificate was sent in answer to it.
    public var presented: Bool
    /// Subject (RFC 2253) of the configured client certificate; nil without an identity.
    public var certificateSubject: String?
    /// notAfter of the configured client certificate; nil without an identity. Reported even when the
    /// server did not ask: it is one more certificate whose expiry breaks the connection.
    public var certificateNotAfter: Date?
    /// Why the configured certificate could not be sent when the server asked, if it could not.
    public var error: String?

    /// Creates the facts; the defaults describe a server that did not ask and no configured identity.
    public init(requested: Bool = false, presented: Bool = false, certificateSubject: String? = nil,
                certificateNotAfter: Date? = nil, error: String? = nil) {
        self.requested = requested
        self.presented = presented
        self.certificateSubject = certificateSubject
        self.certificateNotAfter = certificateNotAfter
        self.error = error
    }

    /// Whether a client identity was configured for the probe.
    public var identityConfigured: Bool { certificateNotAfter != nil }
}
