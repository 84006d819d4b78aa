import COpenSSL
import Foundation
import PinGuardCore
import PinGuardFiles

/// A TLS client identity (certificate, the intermediates to send with it, private key) loaded once from the
/// files a target names, and given to OpenSSL only when a server asks for a client certificate
/// (`ClientAuthRecorder`).
public final class ClientIdentity: @unchecked Sendable, Equatable {
    /// The files it was read from.
    public let source: ClientIdentitySource
    /// Subject of the certificate (RFC 2253).
    public let subject: String
    /// notAfter of the certificate.
    public let notAfter: Date
    private let certificate: OpaquePointer
    private let chain: [OpaquePointer]
    private let key: OpaquePointer

    /// The largest identity or password file read (a certificate, a key and a few intermediates are kilobytes).
    public static let maximumFileSize = 1 << 20

    /// Reads and checks the identity: the certificate parses, the key parses (PEM keys unencrypted; PKCS#12
    /// with its password) and belongs to the certificate. Errors name the config key and the file.
    public init(source: ClientIdentitySource) throws(ProbeError) {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let certificates: [OpaquePointer]
        let key: OpaquePointer
        let keyName: String
        switch source {
        case .pem(let certFile, let keyFile):
            certificates = try CertificateFile.parse(try Self.read(certFile), name: "client_cert \(certFile)")
            keyName = "client_key \(keyFile)"
            do throws(ProbeError) {
                key = try Self.pemKey(try Self.read(keyFile), name: keyName)
            } catch {
                certificates.forEach { X509_free($0) }
                throw error
            }
        case .pkcs12(let file, let passwordFile):
            keyName = "client_pkcs12 \(file)"
            let password = try passwordFile.map { f throws(ProbeError) in try Self.password(f) } ?? ""
            (certificates, key) = try PKCS12Identity.parse(try Self.read(file), password: password, name: keyName)
        }
        guard X509_check_private_key(certificates[0], key) == 1 else {
            certificates.forEach { X509_free($0) }
            EVP_PKEY_free(key)
            throw ProbeError("\(keyName): the private key does not belong to the client certificate")
        }
        self.source = source
        certificate = certificates[0]
        chain = Array(certificates.dropFirst())
        self.key = key
        subject = CertificateReader.name(X509_get_subject_name(certificates[0]))
        notAfter = CertificateReader.time(X509_get0_notAfter(certificates[0]))
    }

    deinit {
        X509_free(certificate)
        chain.forEach { X509_free($0) }
        EVP_PKEY_free(key)
    }

    /// Identities are the same when they are the same object (one load per configured source).
    public static func == (a: ClientIdentity, b: ClientIdentity) -> Bool { a === b }

    /// Loads every distinct identity the targets name; an error names the target, the key and the file.
    public static func loadAll(_ targets: [Target]) throws(ProbeError) -> [ClientIdentitySource: ClientIdentity] {
        var out: [ClientIdentitySource: ClientIdentity] = [:]
        for t in targets {
            guard let source = t.clientIdentity, out[source] == nil else { continue }
            do throws(ProbeError) { out[source] = try ClientIdentity(source: source) } catch {
                throw ProbeError("target \(EchoedInput.quoted(t.name)): \(error.message)", code: .clientIdentity)
            }
        }
        return out
    }

    /// Sets the identity on a connection (from the certificate callback, when the server asked).
    package func present(on ssl: OpaquePointer) -> Bool {
        guard SSL_use_certificate(ssl, certificate) == 1, SSL_use_PrivateKey(ssl, key) == 1 else { return false }
        return chain.allSatisfy { pg_SSL_add1_chain_cert(ssl, $0) == 1 }
    }

    /// A key or certificate file's bytes, at most 1 MiB.
    package static func read(_ path: String) throws(ProbeError) -> [UInt8] {
        do throws(RegularFileError) { return try RegularFile.read(path, maxBytes: maximumFileSize) } catch {
            if error.code == .tooLarge { throw ProbeError("\(path): larger than 1 MiB, not a key or certificate file") }
            throw ProbeError("\(path): cannot read the file: \(error.reason)")
        }
    }

    /// The password in a password file: its bytes up to a final line break (`echo secret > file` works).
    static func password(_ path: String) throws(ProbeError) -> String {
        var bytes = try read(path)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.contains(0) else { throw ProbeError("client_pkcs12_password_file \(path): contains a NUL byte") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An unencrypted PEM private key; an encrypted one is refused (no prompt: the service has no terminal).
    static func pemKey(_ bytes: [UInt8], name: String) throws(ProbeError) -> OpaquePointer {
        guard let bio = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
            throw ProbeError.openSSL("\(name): cannot allocate a buffer")
        }
        defer { BIO_free(bio) }
        // The callback refuses to supply a password, so OpenSSL never prompts on the terminal.
        if let read = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) {
            guard let key = KeyDecoding.adopt(read) else { throw ProbeError.openSSL("\(name): cannot hold the private key") }
            return key
        }
        if bytes.count < 1 << 20, String(decoding: bytes, as: UTF8.self).contains("ENCRYPTED") {
            throw ProbeError("\(name): the private key is encrypted; use client_pkcs12 with client_pkcs12_password_file")
        }
        let detail = OpenSSLErrorQueue.drain()
        throw ProbeError("\(name): no PEM private key in the file" + (detail.isEmpty ? "" : " (\(detail))"))
    }
}
