import Foundation

/// One virtual TLS server: the name it answers to (SNI) and the chain and key it serves.
public struct TLSSite: Sendable, Equatable {
    /// SNI server name that selects this site.
    public var serverName: String
    /// PEM file served: leaf first, then the chain.
    public var chainFile: String
    /// The leaf's private key.
    public var keyFile: String
    /// When set, the site demands a client certificate issued by these CAs (`ssl_verify_client on`,
    /// `ssl_client_certificate`): nginx sends a CertificateRequest and answers 400 without a valid one.
    public var clientCAFile: String?

    /// Creates a site.
    public init(serverName: String, chainFile: String, keyFile: String, clientCAFile: String? = nil) {
        self.serverName = serverName
        self.chainFile = chainFile
        self.keyFile = keyFile
        self.clientCAFile = clientCAFile
    }

    /// The test PKI's leaf `name` with its intermediate, served under `serverName(name)` (`NAME.pinguard.test`).
    public static func leaf(_ name: String, in pki: TestPKI) -> TLSSite {
        TLSSite(serverName: pki.serverName(name), chainFile: pki.chain(name), keyFile: pki.key(name))
    }
}

/// Real TLS servers on loopback: one nginx process serving several sites on one port, chosen by SNI
/// (the first site is the default for unknown names or no SNI). It listens on 127.0.0.1 and, when the
/// host has it, on [::1], with the same port — or on the given loopback addresses and port (several
/// farms on 127.0.0.2, 127.0.0.3, [::1] … with one port are the nodes behind one name).
///
/// nginx runs in the foreground without a master process (`master_process off`), so the one PID is
/// the whole server and stopping it by PID leaves nothing behind.
public final class TLSServerFarm: @unchecked Sendable {
    /// The port every site is served on.
    public let port: Int
    /// Whether the farm also listens on [::1].
    public let listensOnIPv6: Bool
    /// The sites served, the first being the default.
    public let sites: [TLSSite]
    /// nginx's working folder (config, logs).
    public let directory: URL
    private let process: ChildProcess

    /// Path of the nginx executable.
    public static let nginxPath: String? = CommandRunner.which("nginx")

    /// Starts nginx serving `sites` with the given `ssl_protocols`; waits (bounded) until the port accepts.
    /// Retries with another port when the chosen one was taken meanwhile.
    ///
    /// - Parameters:
    ///   - addresses: listen on these addresses (`127.0.0.2`, `[::1]`) instead of 127.0.0.1 and [::1].
    ///   - port: listen on this port instead of a free one (no retry when it is taken).
    public init(sites: [TLSSite], protocols: [String] = ["TLSv1.2", "TLSv1.3"],
                ipv6: Bool = LoopbackPorts.ipv6Available, addresses: [String]? = nil, port fixedPort: Int? = nil) throws {
        guard let nginx = Self.nginxPath else { throw HarnessError("nginx is not installed") }
        guard !sites.isEmpty else { throw HarnessError("a server farm needs at least one site") }
        let dir = try TemporaryDirectory.make("pinguard-nginx")
        let useIPv6 = ipv6 && LoopbackPorts.ipv6Available
        var lastLog = ""
        let listen = addresses ?? (["127.0.0.1"] + (useIPv6 ? ["[::1]"] : []))
        for attempt in 1...(fixedPort == nil ? 5 : 1) {
            let port = fixedPort ?? LoopbackPorts.free(ipv6: useIPv6)
            let conf = dir.appendingPathComponent("nginx.conf")
            try Self.config(sites: sites, port: port, protocols: protocols, listen: listen, directory: dir)
                .write(to: conf, atomically: true, encoding: .utf8)
            let log = dir.appendingPathComponent("error.log")
            let child = try ChildProcess(executable: nginx, arguments: [
                "-p", dir.path, "-e", log.path, "-c", conf.path,
                "-g", "daemon off; master_process off; pid \(dir.path)/nginx.pid;",
            ], logFile: dir.appendingPathComponent("stdout-\(attempt).log"))
            let probeHost = listen[0].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if LoopbackPorts.waitUntilAccepting(host: probeHost, port: port, timeout: 60, stillAlive: { child.isRunning }) {
                self.port = port
                self.listensOnIPv6 = listen.contains { $0.contains(":") }
                self.sites = sites
                self.directory = dir
                self.process = child
                return
            }
            child.stop()
            lastLog = ((try? String(contentsOf: log, encoding: .utf8)) ?? "") + child.log
            if !lastLog.contains("Address already in use") { break }
        }
        throw HarnessError("nginx did not start:\n\(lastLog)")
    }

    deinit { process.stop() }

    /// Stops nginx (SIGTERM, then SIGKILL); idempotent.
    public func stop() { process.stop() }

    /// Whether nginx is still running.
    public var isRunning: Bool { process.isRunning }

    /// The nginx configuration for `sites`.
    static func config(sites: [TLSSite], port: Int, protocols: [String], listen: [String], directory: URL) -> String {
        let d = directory.path
        var servers = ""
        for (i, site) in sites.enumerated() {
            let def = i == 0 ? " default_server" : ""
            servers += "  server {\n"
            for address in listen { servers += "    listen \(address):\(port) ssl\(def);\n" }
            servers += """
                server_name \(site.serverName);
                ssl_certificate \(site.chainFile);
                ssl_certificate_key \(site.keyFile);
                ssl_protocols \(protocols.joined(separator: " "));

            """
            if let ca = site.clientCAFile {
                servers += "    ssl_verify_client on;\n    ssl_client_certificate \(ca);\n"
            }
            servers += """
                return 200 "\(site.serverName)\\n";
              }

            """
        }
        return """
        worker_processes 1;
        events { worker_connections 1024; }
        http {
          access_log off;
          client_body_temp_path \(d)/body;
          proxy_temp_path \(d)/proxy;
          fastcgi_temp_path \(d)/fastcgi;
          uwsgi_temp_path \(d)/uwsgi;
          scgi_temp_path \(d)/scgi;
          server_names_hash_bucket_size 128;
          ssl_session_cache off;
          ssl_session_tickets off;
        \(servers)}

        """
    }
}
