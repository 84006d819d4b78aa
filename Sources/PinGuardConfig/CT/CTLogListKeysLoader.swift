import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardFiles

/// Reads the keys that check the signed lists given by URL (`ct.log_list_keys`): the configured PEM file, else
/// the publisher's key bundled with pinguard (`Resources/ct_log_list_pubkey_<name>.pem`, Google's for
/// Chrome's list; see CT_LOG_LISTS.md). A key that does not read is a configuration error.
public enum CTLogListKeysLoader {
    /// The bundled key's file name for list `name`.
    public static func bundledFileName(_ name: CTLogListName) -> String { "ct_log_list_pubkey_\(name.rawValue).pem" }

    /// The largest key file read.
    static let maxBytes = 64 * 1024

    /// The key of each signed list that `config` fetches from a URL, with the file it came from.
    public static func load(_ config: ServiceConfig, path: String, base: String,
                            executable: URL? = Bundle.main.executableURL) throws(ConfigError) -> [CTLogListName: CTLogListKey] {
        var keys: [CTLogListName: CTLogListKey] = [:]
        for name in CTLogListName.allCases where name.isSigned && CTLogListSource(configured: config.ctLogLists[name]).url != nil {
            let configKey = "ct.log_list_keys.\(name.rawValue)"
            let file: String
            if let given = config.ctLogListKeys[name] {
                file = ConfigurationLoader.resolve(given, against: base)
            } else if let bundled = BundledResource.path(bundledFileName(name), executable: executable) {
                file = bundled
            } else {
                throw ConfigError(file: path, line: nil, key: configKey,
                                  message: "the bundled key of the \(name.rawValue) CT log list (\(bundledFileName(name))) is not found \(BundledResource.whereSought); set \(BundledResource.dataDirVariable) or give \(configKey)")
            }
            keys[name] = try read(file, name: name, key: configKey, path: path, line: config.lines[configKey])
        }
        return keys
    }

    static func read(_ file: String, name: CTLogListName, key: String, path: String, line: Int?) throws(ConfigError) -> CTLogListKey {
        let bytes: [UInt8]
        do throws(RegularFileError) { bytes = try RegularFile.read(file, maxBytes: maxBytes) } catch {
            throw ConfigError(file: path, line: line, key: key, message: "\(file): \(error.reason)")
        }
        do throws(ProbeError) { return CTLogListKey(key: try LogListSignatureKey(pem: bytes, name: file), file: file) } catch {
            throw ConfigError(file: path, line: line, key: key, message: error.message)
        }
    }
}

/// A signed list's key and the file it was read from (named when a signature does not verify).
public struct CTLogListKey: Sendable {
    /// The key.
    public var key: LogListSignatureKey
    /// Its file (the bundled copy's installed path when none is configured).
    public var file: String
}
