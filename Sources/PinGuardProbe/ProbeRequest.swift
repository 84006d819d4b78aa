import COpenSSL
import Foundation
import PinGuardCore
#if canImport(Glibc)
import Glibc
#endif

/// What to probe: the server name, the port, optionally the address to dial, and the deadline.
public struct ProbeRequest: Sendable, Equatable {
    /// Server name: SNI and hostname verification.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Address (or name) to dial instead of resolving `host`.
    public var connect: String?
    /// Seconds for resolve + connect + handshake together.
    public var timeout: Double
    /// mTLS identity sent when the server asks for a client certificate; nil = none.
    public var clientIdentity: ClientIdentity?

    /// Creates a request.
    public init(host: String, port: Int = 443, connect: String? = nil, timeout: Double = 10,
                clientIdentity: ClientIdentity? = nil) {
        self.host = host
        self.port = port
        self.connect = connect
        self.timeout = timeout
        self.clientIdentity = clientIdentity
    }
}
