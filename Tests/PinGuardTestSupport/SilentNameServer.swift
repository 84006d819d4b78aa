import Foundation

/// A name server that reads every query and never answers (UDP 127.0.0.9:53, needs root), with a
/// resolv.conf pointing at it for `scripts/with-journald.sh --resolv-conf`: name lookups hang until the
/// resolver gives up, as they do when a DNS server is down or filtered.
public final class SilentNameServer: @unchecked Sendable {
    /// The address it listens on.
    public static let address = "127.0.0.9"
    /// The resolv.conf to bind over /etc/resolv.conf.
    public let resolvConf: URL
    private let process: ChildProcess

    /// Starts the server; waits (bounded) until it is bound.
    public init() throws {
        let dir = try TemporaryDirectory.make("pinguard-silent-dns")
        resolvConf = dir.appendingPathComponent("resolv.conf")
        try "nameserver \(Self.address)\noptions timeout:5 attempts:2\n".write(to: resolvConf, atomically: true, encoding: .utf8)
        let script = """
        import socket, time
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("\(Self.address)", 53))
        print("ready", flush=True)
        while True:
            s.recvfrom(4096)
        """
        process = try NameServerProcess.start(script, log: dir.appendingPathComponent("server.log"), what: "silent name server")
    }

    deinit { process.stop() }

    /// Stops the server.
    public func stop() { process.stop() }
}
