import Foundation
import PinGuardCore

/// Reads the issuer catalog (JSON: `{"version": 1, "generated", "pools": [{"name", "operator", "acme_directory", "issuers":
/// [{"name", "subject", "issuer", "spki_sha256", "certificate_sha256", "not_before", "not_after", "active",
/// "chains_to": [ROOT NAME...]}]}], "roots": [{"name", "subject", "spki_sha256", "certificate_sha256",
/// "not_before", "not_after"}]}`); an error names the first entry that does not read.
public enum IssuerCatalogReader {
    /// The largest catalog read.
    public static let maxBytes = 4 << 20

    /// The catalog in `bytes` (named `file` in errors).
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> IssuerCatalog {
        func fail(_ message: String) -> ConfigError { ConfigError(file: file, line: nil, key: nil, message: message) }
        guard bytes.count <= maxBytes else { throw fail("larger than \(maxBytes) bytes") }
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw fail("not a JSON object")
        }
        guard root["version"] as? Int == 1 else { throw fail("\"version\" must be 1") }
        var roots: [String: ChainCertificate] = [:]
        for (i, r) in ((root["roots"] as? [[String: Any]]) ?? []).enumerated() {
            guard let name = r["name"] as? String, let c = certificate(r, isCA: true) else { throw fail("roots[\(i)] does not read") }
            roots[name] = c
        }
        var pools: [IssuerCatalog.Pool] = []
        for (i, p) in ((root["pools"] as? [[String: Any]]) ?? []).enumerated() {
            guard let name = p["name"] as? String, let list = p["issuers"] as? [[String: Any]] else { throw fail("pools[\(i)] does not read") }
            var issuers: [IssuerCatalog.Issuer] = []
            for (j, e) in list.enumerated() {
                guard let issuerName = e["name"] as? String, let c = certificate(e, isCA: true) else {
                    throw fail("pools[\(i)].issuers[\(j)] does not read")
                }
                // The path as the CA's default chain serves it: through every root listed (a newer root
                // cross-signed by an older one), up to the last.
                let above = ((e["chains_to"] as? [String]) ?? []).compactMap { roots[$0] }
                issuers.append(IssuerCatalog.Issuer(name: issuerName, chain: [c] + above, active: e["active"] as? Bool,
                                                    keyFamily: IssuerCatalog.keyFamily(e["key"] as? String ?? "")))
            }
            var pool = IssuerCatalog.Pool(name: name, operatorName: p["operator"] as? String ?? "", issuers: issuers)
            if let directory = p["acme_directory"] as? String, directory.hasPrefix("https://"), directory.utf8.count <= 2048 {
                pool.acmeDirectory = directory
            }
            pools.append(pool)
        }
        var catalog = IssuerCatalog(generated: root["generated"] as? String ?? "", pools: pools)
        catalog.certificateFiles = certificateFiles(root)
        return catalog
    }

    /// The certificate files the catalog `root` names (`"pem"`, relative to the catalog's folder) that a next
    /// issuer's path is built from: every issuer not marked retired, and every cross-sign of a root whose `status`
    /// is `valid`; each at most 1,024 bytes of printable text, at most `maxFiles` in all.
    static func certificateFiles(_ root: [String: Any]) -> [String] {
        var files: [String] = []
        for pool in (root["pools"] as? [[String: Any]]) ?? [] {
            for e in (pool["issuers"] as? [[String: Any]]) ?? [] where e["active"] as? Bool != false {
                if let pem = e["pem"] as? String { files.append(pem) }
            }
        }
        for r in (root["roots"] as? [[String: Any]]) ?? [] {
            for c in (r["cross_signs"] as? [[String: Any]]) ?? [] where c["status"] as? String == "valid" {
                if let pem = c["pem"] as? String { files.append(pem) }
            }
        }
        let printable = files.filter { f in !f.isEmpty && f.utf8.count <= 1_024 && f.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }
        return Array(printable.prefix(maxFiles))
    }

    /// Certificate files read from one catalog at most.
    public static let maxFiles = 4_096

    static func certificate(_ o: [String: Any], isCA: Bool) -> ChainCertificate? {
        guard let subject = o["subject"] as? String, let spki = o["spki_sha256"] as? String,
              let cert = o["certificate_sha256"] as? String else { return nil }
        let notBefore = (o["not_before"] as? String).flatMap(RFC3339.parse) ?? .distantPast
        let notAfter = (o["not_after"] as? String).flatMap(RFC3339.parse) ?? .distantFuture
        let issuer = o["issuer"] as? String ?? subject
        return ChainCertificate(depth: 1, subject: subject, issuer: issuer, notBefore: notBefore, notAfter: notAfter, spkiSHA256: spki,
                                certSHA256: cert, isCA: isCA, selfIssued: issuer == subject)
    }
}
