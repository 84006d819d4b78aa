import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardFiles

/// Where each client's store comes from: the bundled `client_trust_stores.json`, or `trust.ca_file`, which
/// is then every client's store (a private PKI), without versions (docs/reference.md, Clients and their stores).
/// The stores' model is PinGuardCore/ClientTrust, the path building PinGuardCrypto/ClientPaths.
public enum ClientTrustStores {
    /// The bundled data file's name.
    public static let resourceName = "client_trust_stores.json"

    /// The bundled stores; throws naming the file when it is missing or malformed.
    public static func bundled(path: String? = BundledResource.path(resourceName)) throws(ConfigError) -> [ClientStoreData] {
        guard let path else {
            throw ConfigError(file: resourceName, line: nil, key: nil,
                              message: "the bundled client trust stores are not found \(BundledResource.whereSought); set \(BundledResource.dataDirVariable) or give trust.client_stores")
        }
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, maxBytes: ClientTrustStoresReader.maxBytes) } catch {
            throw ConfigError(file: path, line: nil, key: nil, message: "\(error)")
        }
        return try ClientTrustStoresReader.read(bytes, file: path)
    }

    /// The judge of the clients that `sets` name (a set with `client: none` is judged on OpenSSL's one path):
    /// from `caFile`'s certificates when given, else from `storesFile` (`trust.client_stores`, the bundled
    /// file's format), else from the bundled stores; nil when no set names a client.
    public static func judge(for sets: [PolicySet], caFile: String?, storesFile: String? = nil, now: Date = Date())
        throws(ConfigError) -> ClientPathJudge? {
        let clients = Set(sets.map(\.client)).subtracting([.none])
        guard !clients.isEmpty else { return nil }
        let data: [ClientStoreData]
        if let caFile {
            data = try privateStores(caFile, clients: clients, now: now)
        } else {
            data = try bundled(path: storesFile ?? BundledResource.path(resourceName)).filter { clients.contains($0.client) }
                .map { $0.applying(through: now) }
        }
        var stores: [ClientStore] = []
        for d in data {
            do throws(ProbeError) { stores.append(try ClientStore(d)) } catch {
                throw ConfigError(file: caFile ?? storesFile ?? resourceName, line: nil, key: nil, message: "\(error)")
            }
        }
        return ClientPathJudge(stores: stores)
    }

    /// `caFile`'s certificates as the one store of each of `clients`, without versions.
    static func privateStores(_ caFile: String, clients: Set<CTClient>, now: Date) throws(ConfigError) -> [ClientStoreData] {
        let roots: [ClientStoreData.Root]
        do {
            let bytes = try RegularFile.read(caFile, maxBytes: 64 << 20)
            roots = try CertificateFile.derCertificates(bytes, name: caFile).map { der in
                ClientStoreData.Root(der: der.bytes, certSHA256: CertificateReader.sha256Base64(der.bytes[...]),
                                     subject: der.subject, versions: nil)
            }
        } catch {
            throw ConfigError(file: caFile, line: nil, key: "trust.ca_file", message: "\(error)")
        }
        return clients.sorted { $0.rawValue < $1.rawValue }.map { client in
            ClientStoreData(client: client, versionName: "", source: caFile, sourceDate: now, refreshDays: 36_500,
                            versionsKnown: nil, versionsInUse: nil, roots: roots, publicRoots: false)
        }
    }
}

extension ClientTrustStores {
    /// Words for a bundled store older than its refresh interval: which client, how old, what to do.
    public static func staleWarning(_ store: ClientStoreData, now: Date) -> String {
        let days = Int(now.timeIntervalSince(store.sourceDate) / 86_400)
        let date = String(RFC3339.format(store.sourceDate).prefix(10))
        return "the \(store.client.rawValue) trust store's data is from \(date), \(days) days old (refreshed every \(store.refreshDays) days): "
            + "roots added since are missing from its verdicts; install a newer pinguard, or regenerate the stores with "
            + "scripts/trust-stores/regenerate.py and give them as trust.client_stores"
    }
}
