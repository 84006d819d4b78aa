import Foundation

/// Certificates for an HTTPS endpoint on 127.0.0.1, made by the `openssl` command line at test time: a server
/// certificate (SAN IP:127.0.0.1 and localhost) under one CA, a client certificate under a client CA, and
/// a client certificate under an unrelated CA that must be refused.
public struct WebPKI: Sendable {
    /// Folder of the files.
    public let directory: URL

    /// The CA that issued the server certificate (for `curl --cacert`, Prometheus' `ca_file`).
    public var serverCA: String { path("server-ca.pem") }
    /// The server certificate and its key.
    public var serverCertificate: String { path("server.pem") }
    public var serverKey: String { path("server.key") }
    /// The CA client certificates must chain to (`client_ca_file`).
    public var clientCA: String { path("client-ca.pem") }
    /// A client certificate under `clientCA`, and its key.
    public var clientCertificate: String { path("client.pem") }
    public var clientKey: String { path("client.key") }
    /// A client certificate under another CA, and its key.
    public var strangerCertificate: String { path("stranger.pem") }
    public var strangerKey: String { path("stranger.key") }

    /// A path in `directory`.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Generates every file in a new temporary folder.
    public static func make() throws -> WebPKI {
        let dir = try TemporaryDirectory.make("pinguard-web-pki")
        let o = OpenSSLTool.path
        let script = """
        set -e
        cd \(CommandRunner.quote(dir.path))
        key() { \(o) genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
        ca() {
          key "$1.key"
          \(o) req -x509 -new -key "$1.key" -out "$1.pem" -days 2 -subj "/CN=$1" \\
            -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
        }
        leaf() {  # name ca cn extensions
          key "$1.key"
          \(o) req -new -key "$1.key" -out "$1.csr" -subj "/CN=$3"
          printf '%s\\n' "$4" > "$1.ext"
          \(o) x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -out "$1.pem" -days 2 -extfile "$1.ext" 2>/dev/null
        }
        ca server-ca; ca client-ca; ca stranger-ca
        leaf server server-ca localhost "subjectAltName=IP:127.0.0.1,DNS:localhost
        extendedKeyUsage=serverAuth"
        leaf client client-ca prometheus "extendedKeyUsage=clientAuth"
        leaf stranger stranger-ca stranger "extendedKeyUsage=clientAuth"
        """
        let r = try CommandRunner.run("/bin/bash", ["-c", script])
        guard r.status == 0 else { throw HarnessError("making the web PKI: \(r)") }
        return WebPKI(directory: dir)
    }
}
