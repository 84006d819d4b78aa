import Foundation

/// Where a certificate of the evaluated chain came from.
public enum CertificateSource: String, Sendable, Codable {
    /// Sent by the server.
    case served
    /// Added from the trust store while building the verified chain (usually the root).
    case store
}

/// Facts about one certificate, as produced by the probe: no parsing judgement, just what was seen.
public struct ChainCertificate: Sendable, Equatable {
    /// Position in the chain, 0 = leaf.
    public var depth: Int
    /// Subject distinguished name (RFC 2253).
    public var subject: String
    /// Issuer distinguished name (RFC 2253).
    public var issuer: String
    /// Serial number, uppercase hex.
    public var serial: String
    /// Start of validity.
    public var notBefore: Date
    /// End of validity.
    public var notAfter: Date
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo as served.
    public var spkiSHA256: String
    /// Base64 SHA-256 of the DER certificate.
    public var certSHA256: String
    /// Key algorithm and size as OpenSSL names them, e.g. `RSA-2048`, `RSA-PSS-2048`, `EC-256`, `ED25519-256`.
    public var keyType: String
    /// Whether the certificate's basic constraints mark it as a CA.
    public var isCA: Bool
    /// Whether subject and issuer are the same name (a self-issued certificate, e.g. a root).
    public var selfIssued: Bool
    /// Served by the peer or added from the trust store.
    public var source: CertificateSource

    /// Creates certificate facts.
    public init(depth: Int, subject: String, issuer: String, serial: String = "", notBefore: Date, notAfter: Date,
                spkiSHA256: String, certSHA256: String, keyType: String = "", isCA: Bool = false,
                selfIssued: Bool = false, source: CertificateSource = .served) {
        self.depth = depth
        self.subject = subject
        self.issuer = issuer
        self.serial = serial
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.spkiSHA256 = spkiSHA256
        self.certSHA256 = certSHA256
        self.keyType = keyType
        self.isCA = isCA
        self.selfIssued = selfIssued
        self.source = source
    }
}

/// What one probe learned: success or the error, the served chain, the verified chain and the trust result.
public struct ProbeFacts: Sendable, Equatable {
    /// Server name: SNI, hostname check and pattern matching.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Address dialled, if known.
    public var address: String?
    /// Error when no chain was retrieved; nil on success.
    public var error: String?
    /// Seconds spent on resolve + connect + handshake.
    public var duration: Double
    /// Why the handshake failed after the server's chain arrived (e.g. it demands a client certificate);
    /// the chain is still judged.
    public var handshakeError: String?
    /// Negotiated protocol, e.g. `TLSv1.3`.
    public var tlsVersion: String?
    /// Certificates as the server sent them, leaf first.
    public var servedChain: [ChainCertificate]
    /// The verified chain including the trust anchor; empty when verification failed.
    public var verifiedChain: [ChainCertificate]
    /// Whether system trust and hostname verification passed.
    public var trusted: Bool
    /// OpenSSL's reason when trust failed.
    public var trustError: String?
    /// When the probe finished.
    public var finishedAt: Date

    /// Creates probe facts.
    public init(host: String, port: Int, address: String? = nil, error: String? = nil, duration: Double = 0,
                tlsVersion: String? = nil, servedChain: [ChainCertificate] = [], verifiedChain: [ChainCertificate] = [],
                trusted: Bool = false, trustError: String? = nil, finishedAt: Date) {
        self.host = host
        self.port = port
        self.address = address
        self.error = error
        self.duration = duration
        self.tlsVersion = tlsVersion
        self.servedChain = servedChain
        self.verifiedChain = verifiedChain
        self.trusted = trusted
        self.trustError = trustError
        self.finishedAt = finishedAt
    }

    /// Whether a chain was retrieved.
    public var success: Bool { error == nil && !servedChain.isEmpty }

    /// The chain pins are judged on: the verified chain with its anchor when trust passed, else the served one.
    public var evaluatedChain: [ChainCertificate] {
        trusted && !verifiedChain.isEmpty ? verifiedChain : servedChain
    }
}
