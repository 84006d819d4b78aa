import Foundation
import PinGuardCore

extension ServiceConfigParser {
    /// `renewal: {before: DURATION, key: reuse|rotate, issuers: POOL, acme_directory: URL|none}` (config-wide or per target).
    static func renewal(_ v: YAMLValue) throws(ConfigError) -> RenewalSettings {
        let m = try v.mapping(allowed: ["before", "key", "issuers", "acme_directory"])
        var r = RenewalSettings()
        if let b = m["before"] { r.before = try b.duration(max: 10 * 365 * 86_400) }
        if let k = m["key"] {
            let text = try k.string()
            guard text == "reuse" || text == "rotate" else { throw k.error("\(EchoedInput.quoted(text)) is not one of reuse, rotate") }
            r.key = text == "reuse" ? .reuse : .rotate
        }
        if let i = m["issuers"] { r.issuers = try i.nonEmptyString() }
        if let d = m["acme_directory"] {
            let text = try d.nonEmptyString()
            guard text == RenewalSettings.noDirectory || (text.hasPrefix("https://") && URL(string: text)?.host != nil && text.utf8.count <= 2048) else {
                throw d.error("\(EchoedInput.quoted(text)) is not an https URL of an ACME directory, or none")
            }
            r.acmeDirectory = text
        }
        return r
    }

    /// `issuer_pools: {NAME: [PEM file or glob...]}`.
    static func issuerPools(_ v: YAMLValue) throws(ConfigError) -> [String: [String]] {
        var pools: [String: [String]] = [:]
        for (name, files) in try v.entries() {
            let list = try files.sequence().map { item throws(ConfigError) in try item.nonEmptyString() }
            guard !list.isEmpty else { throw files.error("issuer pool \(EchoedInput.quoted(name)) names no certificate file") }
            pools[name] = list
        }
        return pools
    }

    /// Every `renewal.issuers` names a pool of `issuer_pools`.
    static func checkRenewalPools(_ c: ServiceConfig, root: YAMLValue) throws(ConfigError) {
        let named = ([c.renewal.issuers] + c.targets.map { $0.renewal?.issuers }).compactMap { $0 }
        if let unknown = named.first(where: { c.issuerPools[$0] == nil }) {
            throw root.error("renewal.issuers names \(EchoedInput.quoted(unknown)), which issuer_pools does not define")
        }
    }
}
