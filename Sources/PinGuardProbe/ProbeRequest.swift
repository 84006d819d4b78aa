import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto
#if canImport(Glibc)
import Glibc
#endif

/// What to probe: the server name, the port, optionally the addresses to dial, which addresses to probe,
/// and the deadline.
public struct ProbeRequest: Sendable, Equatable {
    /// Server name: SNI and hostname verification.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Addresses (or names) to dial instead of resolving `host`; empty = resolve `host`.
    public var connect: [String]
    /// Seconds for resolve + connect + handshake together (per address when every address is probed).
    public var timeout: Double
    /// Every address, or the first that answers.
    public var resolve: ResolveMode
    /// At most this many addresses are probed.
    public var maxAddresses: Int
    /// mTLS identity sent when the server asks for a client certificate; nil = none.
    public var clientIdentity: ClientIdentity?

    /// Creates a request.
    public init(host: String, port: Int = 443, connect: [String] = [], timeout: Double = 10,
                resolve: ResolveMode = .all, maxAddresses: Int = Target.defaultMaxAddresses,
                clientIdentity: ClientIdentity? = nil) {
        self.host = host
        self.port = port
        self.connect = connect
        self.timeout = timeout
        self.resolve = resolve
        self.maxAddresses = maxAddresses
        self.clientIdentity = clientIdentity
    }

    /// The request that probes `target`.
    public init(_ target: Target, timeout: Double) {
        self.init(host: target.host, port: target.port, connect: target.connect, timeout: timeout,
                  resolve: target.resolve, maxAddresses: target.maxAddresses)
    }

    /// The names or addresses resolved to find the endpoints: the `connect` list, else the host.
    var dialNames: [String] {
        (connect.isEmpty ? [host] : connect).map { name in
            name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        }
    }
}
