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
    /// certificates (`Resources/issuer_catalog_certificates.pem`) and those of the `issuer_pools` files (already
    /// read by `pools`); nil without a judge (no set names a client).
    public static func issuerPaths(_ config: ServiceConfig, base: String, judge: ClientPathJudge?) -> IssuerClientPaths? {
        guard let judge else { return nil }
        var ders = bundledCertificates
        for patterns in config.issuerPools.values {
            for file in patterns.flatMap({ ConfigurationLoader.expand(ConfigurationLoader.resolve($0, against: base)) }) {
                guard let bytes = try? RegularFile.read(file, maxBytes: 1 << 20),
                      let certificates = try? CertificateFile.derCertificates(bytes, name: file) else { continue }
                ders += certificates.map(\.bytes)
            }
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
