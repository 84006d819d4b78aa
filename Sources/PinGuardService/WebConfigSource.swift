import Foundation
import NIOConcurrencyHelpers
import NIOSSL
import PinGuardCore

/// The `--web.config.file`, re-read as exporter-toolkit does: for every request (authentication, headers)
/// and every new connection (TLS certificates), so that rotated certificates and changed passwords take
/// effect without a restart. Parsed results and TLS contexts are kept while the files are unchanged.
///
/// A file that is broken at start stops the service (exit 2); one broken later fails the requests and
/// connections that need it, with the error written to stderr once.
public final class WebConfigSource: Sendable {
    /// The configuration file.
    public let path: String

    private struct Cache {
        var text: Data?
        var config: WebConfig?
        var tlsInputs: [Data]?
        var tls: NIOSSLContext?
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

    /// The configuration as the file says now.
    func current() -> Result<WebConfig, ConfigError> { load() }

    private func load() -> Result<WebConfig, ConfigError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ConfigError(file: path, line: nil, key: nil, message: "cannot read the web configuration file"))
        }
        if let config = cache.withLockedValue({ $0.text == data ? $0.config : nil }) { return .success(config) }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ConfigError(file: path, line: nil, key: nil, message: "not UTF-8 text"))
        }
        do {
            let config = try WebConfigParser.parse(text, file: path)
            cache.withLockedValue { c in
                c.text = data
                c.config = config
                // Fixed: the next problem is reported again, even if it is the same one.
                c.lastReported = nil
            }
            return .success(config)
        } catch {
            return .failure(error)
        }
    }

    /// The TLS context for a new connection, and whether client certificates are accepted without
    /// verification (RequestClientCert, RequireAnyClientCert); nil (after reporting why) when the file or a
    /// certificate is broken now.
    func tlsContext() -> (context: NIOSSLContext, acceptAnyClientCertificate: Bool)? {
        switch makeTLSContext() {
        case .success(let made): return made
        case .failure(let error):
            report(error)
            return nil
        }
    }

    private func makeTLSContext() -> Result<(context: NIOSSLContext, acceptAnyClientCertificate: Bool), ConfigError> {
        let config: WebConfig
        switch load() {
        case .success(let c): config = c
        case .failure(let e): return .failure(e)
        }
        guard let tls = config.tls else {
            return .failure(ConfigError(file: path, line: nil, key: "tls_server_config",
                                        message: "TLS was configured at start and is gone now; restart pinguard to serve plain HTTP"))
        }
        let acceptAny = tls.clientAuth == .requestClientCert || tls.clientAuth == .requireAnyClientCert
        let files = [tls.certFile, tls.keyFile] + (tls.clientCAFile.map { [$0] } ?? [])
        var inputs: [Data] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                return .failure(ConfigError(file: path, line: nil, key: "tls_server_config", message: "cannot read \(file)"))
            }
            inputs.append(data)
        }
        inputs.append(Data("\(tls)".utf8))
        if let context = cache.withLockedValue({ $0.tlsInputs == inputs ? $0.tls : nil }) {
            return .success((context, acceptAny))
        }
        do {
            let context = try NIOSSLContext(configuration: Self.configuration(tls, inputs: inputs))
            cache.withLockedValue { c in
                c.tlsInputs = inputs
                c.tls = context
            }
            return .success((context, acceptAny))
        } catch let error as ConfigError {
            return .failure(error)
        } catch {
            return .failure(ConfigError(file: path, line: nil, key: "tls_server_config", message: "TLS setup failed: \(error)"))
        }
    }

    /// The swift-nio-ssl configuration for `tls`, from the file contents just read.
    static func configuration(_ tls: WebTLSConfig, inputs: [Data]) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMBytes(Array(inputs[0])) } catch {
            throw ConfigError(file: tls.certFile, line: nil, key: nil, message: "cert_file holds no PEM certificate: \(error)")
        }
        guard !chain.isEmpty else { throw ConfigError(file: tls.certFile, line: nil, key: nil, message: "cert_file holds no PEM certificate") }
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
        if isNew { StandardError.write("pinguard: web configuration: \(text)") }
    }
}
