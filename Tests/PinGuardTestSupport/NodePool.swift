import Foundation

/// Several nodes behind one name, as a load-balancer pool or GeoDNS answers: nginx on 127.0.0.2 (and
/// [::1] when the host has IPv6) serving the current chain of `pool.pinguard.test`, and nginx on 127.0.0.3
/// serving a node left behind with an older key, all on one port; plus a hosts file for
/// `scripts/with-journald.sh --hosts` that says which addresses the name resolves to.
///
/// 127.0.0.4 never listens: a name that lists it has a node that is down.
public final class NodePool: @unchecked Sendable {
    /// The name every node answers to.
    public static let name = "pool.pinguard.test"
    /// The address of the node that is down.
    public static let downAddress = "127.0.0.4"
    /// The port every node listens on.
    public let port: Int
    /// The nodes serving the current chain: 127.0.0.2 and, with IPv6, ::1.
    public let fresh: TLSServerFarm
    /// The node serving the stale chain: 127.0.0.3.
    public let stale: TLSServerFarm
    /// Whether a node listens on ::1.
    public let hasIPv6: Bool
    /// The hosts file to bind over /etc/hosts (rewritten in place by `resolve(to:)`).
    public let hostsFile: URL
    /// SPKI pins (base64 SHA-256) of the current and the stale leaf key.
    public let freshPin: String
    public let stalePin: String

    /// Starts the nodes and writes a hosts file resolving the name to every one of them. Retries with another
    /// port when one the nodes need is taken (a free port is chosen on 127.0.0.1, not on 127.0.0.2 or .3).
    public init(pki: TestPKI) throws {
        hasIPv6 = LoopbackPorts.ipv6Available
        var attempt = 1
        while true {
            let port = LoopbackPorts.free(ipv6: hasIPv6)
            do {
                let fresh = try TLSServerFarm(sites: [TLSSite(serverName: Self.name, chainFile: pki.chain("pool"), keyFile: pki.key("pool"))],
                                              addresses: ["127.0.0.2"] + (hasIPv6 ? ["[::1]"] : []), port: port)
                let stale: TLSServerFarm
                do {
                    stale = try TLSServerFarm(sites: [TLSSite(serverName: Self.name, chainFile: pki.chain("pool-stale"),
                                                              keyFile: pki.key("pool-stale"))],
                                              addresses: ["127.0.0.3"], port: port)
                } catch {
                    fresh.stop()
                    throw error
                }
                (self.port, self.fresh, self.stale) = (port, fresh, stale)
                break
            } catch let e as HarnessError where e.message.contains("Address already in use") && attempt < 5 {
                attempt += 1
            }
        }
        freshPin = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("pool"))
        stalePin = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("pool-stale"))
        hostsFile = try TemporaryDirectory.make("pinguard-hosts").appendingPathComponent("hosts")
        try resolve(to: allAddresses)
    }

    /// Every node's address, IPv4 first (the order pinguard reports them in).
    public var allAddresses: [String] { ["127.0.0.2", "127.0.0.3"] + (hasIPv6 ? ["::1"] : []) }

    /// `ip:port` (`[ip]:port` for IPv6) of `address`, as pinguard labels it.
    public func label(_ address: String) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    /// Rewrites the hosts file in place so that the name resolves to `addresses` (none: it does not resolve).
    public func resolve(to addresses: [String]) throws {
        var text = "127.0.0.1 localhost\n"
        for a in addresses { text += "\(a) \(Self.name)\n" }
        if !FileManager.default.fileExists(atPath: hostsFile.path) {
            _ = FileManager.default.createFile(atPath: hostsFile.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: hostsFile)
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Stops the nodes.
    public func stop() {
        fresh.stop()
        stale.stop()
    }
}
