import Foundation

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
    /// Negotiated cipher suite as OpenSSL names it, e.g. `TLS_AES_256_GCM_SHA384`.
    public var tlsCipher: String?
    /// Negotiated key-exchange group, e.g. `X25519`.
    public var tlsGroup: String?
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
    /// TLS client authentication: whether the server asked for a client certificate and what was sent.
    public var clientAuth = ClientAuthFacts()
    /// Certificate Transparency: the SCTs served and each client policy's verdict.
    public var ct = CTObservation()
    /// Revocation from CRLs of the evaluated chain's certificates that name a distribution point (the anchor
    /// excepted), by depth; empty when not checked. Filled after the probe, from cached or fetched CRLs.
    public var revocation: [CertificateRevocation] = []
    /// The path each client of the bundled stores (or `trust.ca_file`) builds from the served chain, by
    /// version; empty when no client's paths were judged.
    public var clientPaths = ClientPaths()

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
