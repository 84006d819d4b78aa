import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardFiles
import PinGuardReaders

/// Loads what the renewal forecast draws issuers from: the private pools of `issuer_pools` (PEM files) and
/// the catalog of public pools (`issuer_catalog`, else the bundled one).
public enum IssuerSourcesLoader {
    /// Each pool of `config.issuerPools` (paths resolved against `base`): one issuer per PEM file, its
    /// issuing certificate first, optionally followed by the certificates above it; a path that stops below a
    /// root is completed from `config.caFile` (else the system store), as a client builds it.
    public static func pools(_ config: ServiceConfig, path: String, base: String) throws(ConfigError) -> [String: [IssuerOption]] {
        var out: [String: [IssuerOption]] = [:]
        for (name, patterns) in config.issuerPools {
            let key = "issuer_pools.\(name)"
            var options: [IssuerOption] = []
            for pattern in patterns {
                let files = ConfigurationLoader.expand(ConfigurationLoader.resolve(pattern, against: base))
                guard !files.isEmpty else {
                    throw ConfigError(file: path, line: nil, key: key, message: "no certificate file matches \(EchoedInput.quoted(pattern))")
                }
                for file in files { options.append(try option(file, key: key, caFile: config.caFile)) }
            }
            out[name] = options
        }
        return out
    }

    static func option(_ file: String, key: String, caFile: String?) throws(ConfigError) -> IssuerOption {
        do {
            let bytes = try RegularFile.read(file, maxBytes: 1 << 20)
            let certs = try IssuerPath.complete(bytes, file: file, caFile: caFile)
            let chain = certs.enumerated().map { i, c -> ChainCertificate in
                var c = c
                c.depth = i + 1
                return c
            }
            return IssuerOption(name: ServedChain.commonName(chain[0].subject), chain: chain)
        } catch {
            throw ConfigError(file: file, line: nil, key: key, message: "\(error)")
        }
    }

    /// The catalog: `issuer_catalog` when set (resolved against `base`), else the bundled one (empty when
    /// no bundled copy is found next to the executable).
    public static func catalog(_ config: ServiceConfig, base: String) throws(ConfigError) -> IssuerCatalog {
        guard let file = config.issuerCatalog else { return bundled }
        let resolved = ConfigurationLoader.resolve(file, against: base)
        let bytes: [UInt8]
        do throws(RegularFileError) { bytes = try RegularFile.read(resolved, maxBytes: IssuerCatalogReader.maxBytes) } catch {
            throw ConfigError(file: resolved, line: nil, key: "issuer_catalog", message: error.reason)
        }
        return try IssuerCatalogReader.parse(bytes, file: resolved)
    }

    /// Each client's paths above the issuers a renewal may come from, by `judge`: from the bundled catalog's
    /// certificates (`Resources/issuer_catalog_certificates.pem`), those of the `issuer_pools` files (already read by
    /// `pools`) and, with `issuer_catalog` (read as `catalog`), the certificate files it names
    /// (`IssuerCatalog.certificateFiles`, relative to its folder; one that cannot be read is left out, and its issuer
    /// keeps its one path); nil without a judge (no set names a client).
    public static func issuerPaths(_ config: ServiceConfig, base: String, catalog: IssuerCatalog, judge: ClientPathJudge?) -> IssuerClientPaths? {
        judge.map { issuerPaths(judge: $0, files: certificateFiles(config, base: base, catalog: catalog)) }
    }

    /// The certificate files of `config` (paths resolved against `base`) that next issuers' paths are built from:
    /// its `issuer_pools` files, and those its `issuer_catalog` (read as `catalog`) names.
    public static func certificateFiles(_ config: ServiceConfig, base: String, catalog: IssuerCatalog) -> [String] {
        var files = config.issuerPools.values.flatMap { patterns in
            patterns.flatMap { ConfigurationLoader.expand(ConfigurationLoader.resolve($0, against: base)) }
        }
        if let file = config.issuerCatalog { files += certificateFiles(of: catalog, file: ConfigurationLoader.resolve(file, against: base)) }
        return files
    }

    /// The certificate files `catalog`, read from `file`, names, resolved against the file's folder.
    public static func certificateFiles(of catalog: IssuerCatalog, file: String) -> [String] {
        let folder = (file as NSString).deletingLastPathComponent
        return catalog.certificateFiles.map { ConfigurationLoader.resolve($0, against: folder) }
    }

    /// Each client's paths above the next issuers by `judge`, from the bundled catalog's certificates and those of
    /// `files` (a file that cannot be read is left out).
    public static func issuerPaths(judge: ClientPathJudge, files: [String]) -> IssuerClientPaths {
        var ders = bundledCertificates
        for file in files {
            guard let bytes = try? RegularFile.read(file, maxBytes: 1 << 20),
                  let certificates = try? CertificateFile.derCertificates(bytes, name: file) else { continue }
            ders += certificates.map(\.bytes)
        }
        return IssuerClientPaths(judge: judge, certificates: ders)
    }

    /// The certificates bundled with the catalog, each as DER, read once (none when the file is not found).
    public static let bundledCertificates: [[UInt8]] = {
        guard let file = BundledResource.path("issuer_catalog_certificates.pem"),
              let bytes = try? RegularFile.read(file, maxBytes: 4 << 20),
              let certificates = try? CertificateFile.derCertificates(bytes, name: file) else { return [] }
        return certificates.map(\.bytes)
    }()

    /// The catalog bundled with pinguard (`Resources/issuer_catalog.json`), read once.
    public static let bundled: IssuerCatalog = {
        guard let file = BundledResource.path("issuer_catalog.json"),
              let bytes = try? RegularFile.read(file, maxBytes: IssuerCatalogReader.maxBytes) else { return .empty }
        return (try? IssuerCatalogReader.parse(bytes, file: file)) ?? .empty
    }()
}
