import Foundation
import NIOConcurrencyHelpers
import NIOSSL
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardFiles

/// The `--web.config.file`, re-read as exporter-toolkit does: for every request (authentication, headers)
/// and every new connection (TLS certificates), so that rotated certificates and changed passwords take
/// effect without a restart. Parsed results and TLS contexts are kept while the files are unchanged.
///
/// A file that is broken at start stops the service (exit 2). One broken later is refused: the last good
/// configuration (and TLS context) stays in force, and the refusal is written to stderr once.
public final class WebConfigSource: Sendable {
    /// The configuration file.
    public let path: String
    /// The largest web configuration file read.
    static let maxFileBytes = 1 << 20
    /// The largest certificate, key or client CA file read.
    static let maxPEMBytes = 4 << 20
    /// Certificates `cert_file` may hold: the server's and its intermediates.
    static let maxServedCertificates = 16
    /// Certificates `client_ca_file` may hold.
    static let maxClientCAs = 1_000

    private struct Cache {
        var text: [UInt8]?
        /// Text last refused and why, so that it is not parsed again for every request.
        var refusedText: [UInt8]?
        var refusal: ConfigError?
        var config: WebConfig?
        var tlsInputs: [[UInt8]]?
        var tls: NIOSSLContext?
        var tlsAcceptAny = false
        var lastReported: String?
    }

    private let cache = NIOLockedValueBox(Cache())

    /// Reads and checks the file, including loading its certificates; throws the first problem.
    public init(path: String) throws(ConfigError) {
        self.path = path
        let config = try load().get()
        if config.tls != nil {
            if case .failure(let error) = makeTLSContext() { throw error }
        }
    }

    /// The configuration as the file says now; when the file is broken now, the last good one (the refusal
    /// is reported once). Fails only when no good configuration was ever read.
    func current() -> Result<WebConfig, ConfigError> {
        switch load() {
        case .success(let config): return .success(config)
        case .failure(let error):
            report(error)
            if let good = cache.withLockedValue({ $0.config }) { return .success(good) }
            return .failure(error)
        }
    }

    private func load() -> Result<WebConfig, ConfigError> {
        let data: [UInt8]
        do throws(RegularFileError) { data = try RegularFile.read(path, maxBytes: Self.maxFileBytes) } catch {
            return .failure(ConfigError(file: path, line: nil, key: nil, message: "cannot read the web configuration file: \(error.reason)"))
        }
        let known = cache.withLockedValue { c -> Result<WebConfig, ConfigError>? in
            if c.text == data, let config = c.config { return .success(config) }
            if c.refusedText == data, let refusal = c.refusal { return .failure(refusal) }
            return nil
        }
        if let known { return known }
        guard let text = String(validating: data, as: UTF8.self) else {
            return refuse(data, ConfigError(file: path, line: nil, key: nil, message: "not UTF-8 text"))
        }
        do {
            let config = try WebConfigParser.parse(text, file: path)
            cache.withLockedValue { c in
                c.text = data
                c.config = config
                c.refusedText = nil
                c.refusal = nil
                // Fixed: the next problem is reported again, even if it is the same one.
                c.lastReported = nil
            }
            return .success(config)
        } catch {
            return refuse(data, error)
        }
    }

    private func refuse(_ data: [UInt8], _ error: ConfigError) -> Result<WebConfig, ConfigError> {
        cache.withLockedValue { c in
            c.refusedText = data
            c.refusal = error
        }
        return .failure(error)
    }

    /// The TLS context for a new connection, and whether client certificates are accepted without
    /// verification (RequestClientCert, RequireAnyClientCert); when the file or a certificate is broken now,
    /// the last good context (after reporting why); nil only when there never was one.
    func tlsContext() -> (context: NIOSSLContext, acceptAnyClientCertificate: Bool)? {
        switch makeTLSContext() {
        case .success(let made): return made
        case .failure(let error):
            report(error)
            return cache.withLockedValue { c in c.tls.map { ($0, c.tlsAcceptAny) } }
        }
    }

    private func makeTLSContext() -> Result<(context: NIOSSLContext, acceptAnyClientCertificate: Bool), ConfigError> {
        let config: WebConfig
        switch current() {
        case .success(let c): config = c
        case .failure(let e): return .failure(e)
        }
        guard let tls = config.tls else {
            return .failure(ConfigError(file: path, line: nil, key: "tls_server_config",
                                        message: "TLS was configured at start and is gone now; restart pinguard to serve plain HTTP"))
        }
        let acceptAny = tls.clientAuth == .requestClientCert || tls.clientAuth == .requireAnyClientCert
        let files = [tls.certFile, tls.keyFile] + (tls.clientCAFile.map { [$0] } ?? [])
        var inputs: [[UInt8]] = []
        for file in files {
            do throws(RegularFileError) { inputs.append(try RegularFile.read(file, maxBytes: Self.maxPEMBytes)) } catch {
                return .failure(ConfigError(file: path, line: nil, key: "tls_server_config", message: "cannot read \(error)"))
            }
        }
        inputs.append(Array("\(tls)".utf8))
        if let context = cache.withLockedValue({ $0.tlsInputs == inputs ? $0.tls : nil }) {
            return .success((context, acceptAny))
        }
        do {
            let context = try NIOSSLContext(configuration: Self.configuration(tls, inputs: inputs))
            cache.withLockedValue { c in
                c.tlsInputs = inputs
                c.tls = context
                c.tlsAcceptAny = acceptAny
            }
            return .success((context, acceptAny))
        } catch let error as ConfigError {
            return .failure(error)
        } catch {
            return .failure(ConfigError(file: path, line: nil, key: "tls_server_config", message: "TLS setup failed: \(error)"))
        }
    }

    /// The swift-nio-ssl configuration for `tls`, from the file contents just read.
    static func configuration(_ tls: WebTLSConfig, inputs: [[UInt8]]) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMBytes(Array(inputs[0])) } catch {
            throw ConfigError(file: tls.certFile, line: nil, key: nil, message: "cert_file holds no PEM certificate: \(error)")
        }
        guard !chain.isEmpty else { throw ConfigError(file: tls.certFile, line: nil, key: nil, message: "cert_file holds no PEM certificate") }
        guard chain.count <= maxServedCertificates else {
            throw ConfigError(file: tls.certFile, line: nil, key: nil,
                              message: "cert_file holds \(chain.count) certificates; at most \(maxServedCertificates) (the server's and its intermediates)")
        }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(bytes: Array(inputs[1]), format: .pem) } catch {
            throw ConfigError(file: tls.keyFile, line: nil, key: nil, message: "key_file holds no PEM private key: \(error)")
        }
        var c = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        c.minimumTLSVersion = version(tls.minVersion)
        c.maximumTLSVersion = tls.maxVersion.map(version)
        c.applicationProtocols = ["http/1.1"]
        switch tls.clientAuth {
        case .noClientCert: c.certificateVerification = .none
        case .requestClientCert, .verifyClientCertIfGiven: c.certificateVerification = .optionalVerification
        case .requireAnyClientCert, .requireAndVerifyClientCert: c.certificateVerification = .noHostnameVerification
        }
        if tls.clientAuth != .noClientCert {
            c.sendCANameList = tls.clientCAFile != nil
            if tls.clientCAFile != nil {
                let cas: [NIOSSLCertificate]
                do { cas = try NIOSSLCertificate.fromPEMBytes(Array(inputs[2])) } catch {
                    throw ConfigError(file: tls.clientCAFile ?? "", line: nil, key: nil, message: "client_ca_file holds no PEM certificate: \(error)")
                }
                guard cas.count <= maxClientCAs else {
                    throw ConfigError(file: tls.clientCAFile ?? "", line: nil, key: nil,
                                      message: "client_ca_file holds \(cas.count) certificates; at most \(maxClientCAs)")
                }
                c.trustRoots = .certificates(cas)
            } else {
                c.trustRoots = .certificates([])
            }
        }
        return c
    }

    private static func version(_ v: WebTLSConfig.Version) -> TLSVersion {
        switch v {
        case .tls10: .tlsv1
        case .tls11: .tlsv11
        case .tls12: .tlsv12
        case .tls13: .tlsv13
        }
    }

    /// Writes a problem with the file to stderr, once until a different problem (or none) is seen.
    func report(_ error: ConfigError) {
        let text = "\(error)"
        let isNew = cache.withLockedValue { c in
            defer { c.lastReported = text }
            return c.lastReported != text
        }
        if isNew { StandardError.write("pinguard: web configuration: \(text)", level: .warn) }
    }
}
