import Foundation

/// mTLS client identities made by the `openssl` command line at test time from a `WebPKI`'s client
/// certificate: PEM (separate and combined), PKCS#12 with a password file, and broken variants whose load
/// must fail with a clear error.
public struct ClientIdentityFiles: Sendable {
    /// The PKI the identity comes from (its `clientCA` issues `clientCertificate`).
    public let pki: WebPKI
    /// The password of `pkcs12`, as written in `passwordFile` (with a trailing newline).
    public static let password = "correct horse battery staple"

    /// Certificate + key in one PEM file.
    public var combinedPEM: String { pki.path("client-combined.pem") }
    /// PKCS#12 of the client certificate and key (OpenSSL 3 defaults: AES-256-CBC, PBKDF2, SHA-256 MAC).
    public var pkcs12: String { pki.path("client.p12") }
    /// The password of `pkcs12`, followed by a newline.
    public var passwordFile: String { pki.path("p12.pass") }
    /// Another password.
    public var wrongPasswordFile: String { pki.path("wrong.pass") }
    /// The client key encrypted with a passphrase (refused: the service has no terminal to ask on).
    public var encryptedKey: String { pki.path("client-encrypted.key") }
    /// A PEM file whose base64 is damaged.
    public var brokenPEM: String { pki.path("broken.pem") }
    /// Not a PKCS#12 file.
    public var notPKCS12: String { pki.path("not.p12") }

    /// Generates every file in `pki`'s folder.
    public static func make(pki: WebPKI) throws -> ClientIdentityFiles {
        let o = OpenSSLTool.path
        let script = """
        set -e
        cd \(CommandRunner.quote(pki.directory.path))
        cat client.pem client.key > client-combined.pem
        printf '%s\\n' \(CommandRunner.quote(password)) > p12.pass
        printf 'not the password\\n' > wrong.pass
        \(o) pkcs12 -export -in client.pem -inkey client.key -certfile client-ca.pem -out client.p12 -passout file:p12.pass
        \(o) pkey -in client.key -aes256 -passout pass:secret -out client-encrypted.key
        { echo '-----BEGIN CERTIFICATE-----'; echo 'MIIB!!!!not base64!!!!'; echo '-----END CERTIFICATE-----'; } > broken.pem
        printf 'hello' > not.p12
        """
        let r = try CommandRunner.run("/bin/bash", ["-c", script])
        guard r.status == 0 else { throw HarnessError("making the client identities: \(r)") }
        return ClientIdentityFiles(pki: pki)
    }

    /// notAfter of the client certificate as `openssl x509 -enddate` prints it, as a date.
    public func clientNotAfter() throws -> Date {
        let r = try CommandRunner.run(OpenSSLTool.path, ["x509", "-in", pki.clientCertificate, "-noout", "-enddate", "-dateopt", "iso_8601"])
        let text = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "notAfter=", with: "")
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        guard r.status == 0, let date = f.date(from: text) else { throw HarnessError("openssl x509 -enddate: \(r)") }
        return date
    }
}
