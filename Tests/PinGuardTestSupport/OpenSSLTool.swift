import Foundation

/// The `openssl` command line, as the reference the probe's hashes must agree with (docs/reference.md, Policy files and Evaluation).
public enum OpenSSLTool {
    /// Path of the `openssl` executable.
    public static let path: String = CommandRunner.which("openssl") ?? "/usr/bin/openssl"

    /// SPKI pin of the first certificate in a PEM file, by the reference pipeline of docs/reference.md, Policy files:
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
    public static func spkiSHA256(certificate pemPath: String) throws -> String {
        try pipeline("\(path) x509 -in \(CommandRunner.quote(pemPath)) -pubkey -noout | \(path) pkey -pubin -outform der"
                     + " | \(path) dgst -sha256 -binary | base64")
    }

    /// OkHttp's `sha1/` pin of the first certificate in a PEM file: the SHA-1 of its DER SubjectPublicKeyInfo.
    public static func spkiSHA1(certificate pemPath: String) throws -> String {
        try pipeline("\(path) x509 -in \(CommandRunner.quote(pemPath)) -pubkey -noout | \(path) pkey -pubin -outform der"
                     + " | \(path) dgst -sha1 -binary | base64", digestCharacters: 28)
    }

    /// Certificate pin of the first certificate in a PEM file:
    /// `openssl x509 -outform der | openssl dgst -sha256 -binary | base64`.
    public static func certSHA256(certificate pemPath: String) throws -> String {
        try pipeline("\(path) x509 -in \(CommandRunner.quote(pemPath)) -outform der | \(path) dgst -sha256 -binary | base64")
    }

    /// SPKI pin of a private key's public half (a key no certificate is served with yet: a backup pin).
    public static func spkiSHA256(privateKey keyPath: String) throws -> String {
        try pipeline("\(path) pkey -in \(CommandRunner.quote(keyPath)) -pubout -outform der | \(path) dgst -sha256 -binary | base64")
    }

    /// SHA-256 of the raw RSA public key (PKCS#1 RSAPublicKey, not the SPKI around it) of the first certificate in
    /// a PEM file: what SDKs hashing `SecKeyCopyExternalRepresentation` output pin.
    public static func rawRSAKeySHA256(certificate pemPath: String) throws -> String {
        try pipeline("\(path) x509 -in \(CommandRunner.quote(pemPath)) -pubkey -noout | \(path) rsa -pubin -RSAPublicKey_out -outform der 2>/dev/null"
                     + " | \(path) dgst -sha256 -binary | base64")
    }

    /// A certs-only PKCS#7 (DER) holding `certificates` (PEM), as a CA serves several issuers at one caIssuers URL:
    /// `openssl crl2pkcs7 -nocrl -certfile FILE -outform DER`.
    public static func pkcs7(certificates: [String]) throws -> [UInt8] {
        let dir = try TemporaryDirectory.make("pinguard-pkcs7")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pem = dir.appendingPathComponent("certs.pem"), der = dir.appendingPathComponent("certs.p7b")
        try certificates.joined().write(to: pem, atomically: true, encoding: .utf8)
        let r = try CommandRunner.run(path, ["crl2pkcs7", "-nocrl", "-certfile", pem.path, "-outform", "DER", "-out", der.path])
        guard r.status == 0 else { throw HarnessError("openssl crl2pkcs7: \(r)") }
        return Array(try Data(contentsOf: der))
    }

    /// Runs a pipeline under `sh -o pipefail`-like checks and returns its trimmed stdout.
    static func pipeline(_ commandLine: String, digestCharacters: Int = 44) throws -> String {
        let r = try CommandRunner.run("/bin/bash", ["-o", "pipefail", "-c", commandLine])
        let out = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, out.count == digestCharacters else { throw HarnessError("\(commandLine): \(r)") }
        return out
    }
}
