import Foundation
import PinGuardCore
import PinGuardCrypto

/// Reads `client_trust_stores.json` (format 1; docs/reference.md, Clients and their stores): each client's
/// roots by version with their provenance. The file is untrusted input like any other: every field is checked,
/// each certificate must hash to the name it is listed under, and a problem is an error naming the store, the
/// root and the field.
public enum ClientTrustStoresReader {
    /// Larger files are refused before they are parsed.
    public static let maxBytes = 16 << 20

    /// The stores in `bytes` (read from `file`, named in errors).
    public static func read(_ bytes: [UInt8], file: String) throws(ConfigError) -> [ClientStoreData] {
        func fail(_ why: String) -> ConfigError { ConfigError(file: file, line: nil, key: nil, message: why) }
        guard bytes.count <= maxBytes else { throw fail("larger than \(maxBytes) bytes") }
        guard let top = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw fail("not a JSON object")
        }
        guard top["format"] as? Int == 1 else { throw fail("\"format\" is not 1") }
        guard let certificates = top["certificates"] as? [String: String], let stores = top["stores"] as? [[String: Any]] else {
            throw fail("\"certificates\" (an object of base64 DER) or \"stores\" (a list) is missing")
        }
        var out: [ClientStoreData] = []
        for store in stores {
            do throws(StoreFieldError) {
                out.append(try readStore(store, certificates: certificates))
            } catch {
                throw fail("store \(store["client"] as? String ?? "?"): \(error.message)")
            }
        }
        return out
    }

    struct StoreFieldError: Error { let message: String }

    static func readStore(_ s: [String: Any], certificates: [String: String]) throws(StoreFieldError) -> ClientStoreData {
        guard let name = s["client"] as? String, let client = CTClient(rawValue: name), client != .none else {
            throw StoreFieldError(message: "\"client\" is not android, ios, chrome or jvm")
        }
        guard let source = s["source"] as? String, let date = (s["source_date"] as? String).flatMap(day),
              let refresh = s["refresh_days"] as? Int, refresh > 0 else {
            throw StoreFieldError(message: "\"source\", \"source_date\" (YYYY-MM-DD) or \"refresh_days\" is missing")
        }
        var roots: [ClientStoreData.Root] = []
        for r in s["roots"] as? [[String: Any]] ?? [] {
            guard let hash = r["certificate"] as? String, let der = certificates[hash].flatMap({ Data(base64Encoded: $0) }) else {
                throw StoreFieldError(message: "a root names a certificate that is not in \"certificates\"")
            }
            let bytes = [UInt8](der)
            guard CertificateReader.sha256Base64(bytes[...]) == hash else {
                throw StoreFieldError(message: "certificate \(hash) does not hash to its name")
            }
            roots.append(ClientStoreData.Root(der: bytes, certSHA256: hash, subject: r["subject"] as? String ?? hash,
                                              versions: try versions(r["versions"]), added: (r["added"] as? String).flatMap(day),
                                              distrustAfter: (r["distrust_after"] as? String).flatMap(instant)))
        }
        var changes: [ClientStoreData.Change] = []
        for c in s["changes"] as? [[String: Any]] ?? [] {
            guard let hash = c["certificate"] as? String, let kind = (c["change"] as? String).flatMap(ClientStoreData.Change.Kind.init) else {
                throw StoreFieldError(message: "a change lacks \"certificate\" or \"change\" (added, removed, distrusted)")
            }
            changes.append(ClientStoreData.Change(certSHA256: hash, subject: c["subject"] as? String ?? hash, kind: kind,
                                                  versions: try versions(c["versions"]),
                                                  date: (c["date"] as? String).flatMap { kind == .distrusted ? cutOff($0) : instant($0) },
                                                  source: c["source"] as? String ?? "",
                                                  der: certificates[hash].flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }))
        }
        return ClientStoreData(client: client, versionName: s["version_name"] as? String ?? "", source: source, sourceDate: date,
                               refreshDays: refresh, versionsKnown: try versions(s["versions_known"]),
                               versionsInUse: try versions(s["versions_in_use"]), roots: roots, changes: changes)
    }

    /// A range, or nil for null, a missing field or an empty string.
    static func versions(_ value: Any?) throws(StoreFieldError) -> ClientVersions? {
        guard let text = value as? String, !text.isEmpty else { return nil }
        guard let v = ClientVersions(text) else { throw StoreFieldError(message: "\"\(text)\" is not a range of versions") }
        return v
    }

    /// `YYYY-MM-DD` (a longer text read by its first ten characters) as that day's start, UTC.
    static func day(_ text: String) -> Date? { RFC3339.parse(String(text.prefix(10)) + "T00:00:00Z") }

    /// An RFC 3339 time, or a day.
    static func instant(_ text: String) -> Date? { RFC3339.parse(text) ?? day(text) }

    /// A distrust cut-off: an RFC 3339 time, or a day's last second (Chrome Root Store's `sct_not_after` of a day
    /// is 23:59:59 UTC: a leaf issued during the day is still trusted).
    static func cutOff(_ text: String) -> Date? { RFC3339.parse(text) ?? day(text)?.addingTimeInterval(86_399) }
}
