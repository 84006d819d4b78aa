import Foundation
import PinGuardCore
import PinGuardFiles
import PinGuardReaders

/// Reads the policy files a command is given (`probe --policy`, `plan --policy`) in any format `import` reads:
/// a pinguard policy (YAML) is parsed strictly; a pin configuration an app ships (Info.plist, TrustKit JSON or
/// source, `network_security_config.xml`, OkHttp source, HPKP headers) is imported on the fly, its findings
/// handed back for the command to print. The format is `--input-format`'s, else detected per file as `lint` does.
public enum PolicyFilesLoader {
    /// The sets of every file, in order, and what the importers noticed in the native ones.
    public struct Loaded: Sendable, Equatable {
        /// The policy sets, each name used once.
        public var sets: [PolicySet]
        /// The importers' findings, file by file.
        public var findings: [ImportFinding]
    }

    /// Loads `files`.
    ///
    /// - Parameters:
    ///   - format: the input format of every file; nil detects each file's.
    ///   - resources: for an Android config, the `@raw/NAME` certificates it names (from its bytes and path).
    /// - Throws: `ConfigError` naming the file (and line) that does not read, or a set name used twice.
    public static func load(_ files: [String], format: LintInputFormat? = nil,
                            resources: ([UInt8], String) -> [String: ImportResource] = { _, _ in [:] }) throws(ConfigError) -> Loaded {
        var loaded = Loaded(sets: [], findings: [])
        for file in files {
            let bytes: [UInt8]
            do throws(RegularFileError) { bytes = try RegularFile.read(file, maxBytes: ImportLimits.maxInputBytes) } catch {
                throw ConfigError(file: file, line: nil, key: nil, message: error.reason)
            }
            let kind = format ?? LintInputFormat.detect(file: file, contents: bytes)
            if kind == .policy {
                loaded.sets += try ConfigurationLoader.loadPolicies([file])
            } else {
                let read: NativePolicyReader.Read
                do {
                    read = try NativePolicyReader.read(bytes, file: file, format: kind, name: setName(file),
                                                       resources: kind == .androidNSC ? resources(bytes, file) : [:])
                } catch {
                    loaded.findings += error.findings
                    throw ConfigError(file: error.file, line: error.line, key: nil,
                                      message: "read as \(kind.rawValue): \(error.message)")
                }
                loaded.sets += read.sets
                loaded.findings += read.findings
            }
            try checkNames(loaded.sets)
        }
        return loaded
    }

    /// A native file's set name: its name without directory and extension.
    static func setName(_ file: String) -> String {
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        return stem.trimmingCharacters(in: .whitespaces).isEmpty ? "app" : stem
    }

    /// Refuses the first set whose name an earlier set has.
    static func checkNames(_ sets: [PolicySet]) throws(ConfigError) {
        var first: [String: PolicySet] = [:]
        for set in sets {
            if let other = first[set.name] {
                throw ConfigError(file: set.file ?? "", line: set.nameLine, key: "name",
                                  message: "policy set name \(EchoedInput.quoted(set.name)) is already used by \(other.file ?? "another file")")
            }
            first[set.name] = set
        }
    }
}
