import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardFiles

/// Turns `ct:` and the loaded policy sets into `CTSettings`: the log lists in force (bundled unless
/// replaced), the roots counted as public, and whether any set checks CT.
public enum CTSettingsLoader {
    /// The largest `ct.public_roots` file read.
    static let maxRootsBytes = 8 << 20

    /// The settings for `config` (paths resolved against `base`) and `sets`.
    public static func load(_ config: ServiceConfig, sets: [PolicySet], path: String, base: String) throws(ConfigError) -> CTSettings {
        let collect = CTSettings.needed(by: sets)
        let roots = try publicRoots(config, path: path, base: base)
        // Without a set that checks CT the lists only date themselves in the metrics: a missing bundled copy
        // is then no reason to refuse the configuration.
        guard collect || !config.ctLogLists.isEmpty else {
            return CTSettings(lists: (try? CTLogListsLoader.load(replacements: [:], relativeTo: base)) ?? [:], publicRoots: roots)
        }
        let lists = try CTLogListsLoader.load(replacements: config.ctLogLists, relativeTo: base)
        return CTSettings(lists: lists, publicRoots: roots, collect: collect)
    }

    /// The keys SCT signatures are checked with, when `ct` collects SCTs: built once per load, for the
    /// certificate files judged every round; a log whose key does not read names itself in the error.
    public static func keyring(_ ct: CTSettings, path: String) throws(ConfigError) -> CTLogKeyring? {
        guard ct.collect else { return nil }
        do throws(ProbeError) { return try CTLogKeyring(logs: ct.allLogs) } catch {
            throw ConfigError(file: path, line: nil, key: "ct.log_lists", message: error.message)
        }
    }

    /// `ct.public_roots` read as SPKI hashes; else the system store, or none when `trust.ca_file` replaces it.
    static func publicRoots(_ config: ServiceConfig, path: String, base: String) throws(ConfigError) -> CTPublicRoots {
        guard let file = config.ctPublicRoots.map({ ConfigurationLoader.resolve($0, against: base) }) else {
            return .defaultRoots(caFile: config.caFile)
        }
        do {
            let bytes = try RegularFile.read(file, maxBytes: maxRootsBytes)
            return .keys(Set(try CertificateReader.load(bytes, file: file).map(\.spkiSHA256)))
        } catch {
            throw ConfigError(file: path, line: config.lines["ct.public_roots"], key: "ct.public_roots", message: "\(error)")
        }
    }
}
