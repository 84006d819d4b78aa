import Foundation

/// One `openssl s_server -www` on 127.0.0.1, for servers nginx will not be: TLS 1.0 only, absurd chains.
public final class TLSServer: @unchecked Sendable {
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let process: ChildProcess

    /// Starts `openssl s_server` serving `certificate` with `key`, sending `chain` (PEM, may be nil) after
    /// the leaf, with `extraArguments` (e.g. `["-tls1"]`); waits (bounded) until the port accepts.
    public init(certificate: String, key: String, chain: String?, extraArguments: [String] = []) throws {
        let dir = try TemporaryDirectory.make("pinguard-s_server")
        var lastLog = ""
        for attempt in 1...5 {
            let port = LoopbackPorts.free(ipv6: false)
            var args = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key,
                        "-www", "-quiet"]
            if let chain { args += ["-cert_chain", chain] }
            args += extraArguments
            let child = try ChildProcess(executable: OpenSSLTool.path, arguments: args,
                                         logFile: dir.appendingPathComponent("s_server-\(attempt).log"))
            if LoopbackPorts.waitUntilAccepting(port: port, timeout: 60, stillAlive: { child.isRunning }) {
                self.port = port
                self.process = child
                return
            }
            child.stop()
            lastLog = child.log
            if !lastLog.lowercased().contains("address already in use") { break }
        }
        throw HarnessError("openssl s_server did not start:\n\(lastLog)")
    }

    deinit { process.stop() }

    /// Stops the server (SIGTERM, then SIGKILL); idempotent.
    public func stop() { process.stop() }

    /// Whether the server is still running.
    public var isRunning: Bool { process.isRunning }

    /// A server that speaks TLS 1.0 only (with the security level lowered so OpenSSL 3 agrees to), serving
    /// the `valid` leaf.
    public static func tls10Only(pki: TestPKI) throws -> TLSServer {
        try TLSServer(certificate: pki.certificate("valid"), key: pki.key("valid"), chain: pki.intermediate,
                      extraArguments: ["-tls1", "-cipher", "DEFAULT:@SECLEVEL=0"])
    }

    /// A server sending a chain of `count` certificates: the `valid` leaf, then the intermediate `count - 1`
    /// times.
    public static func longChain(pki: TestPKI, count: Int = 100) throws -> TLSServer {
        let rest = try pki.repeatedIntermediate(count: max(0, count - 1))
        return try TLSServer(certificate: pki.certificate("valid"), key: pki.key("valid"), chain: rest)
    }

    /// A server for one leaf of the test PKI with its intermediate; `extraArguments` such as `["-tls1_2"]`.
    public static func leaf(_ name: String, pki: TestPKI, extraArguments: [String] = []) throws -> TLSServer {
        try TLSServer(certificate: pki.certificate(name), key: pki.key(name), chain: pki.intermediate,
                      extraArguments: extraArguments)
    }
}
