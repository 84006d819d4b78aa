import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardFiles
import PinGuardCrypto
#if canImport(Glibc)
import Glibc
#endif

/// Reads `pinguard.yml` and its policy files from disk; parsing and validation are the core's.
public enum ConfigurationLoader {
    /// Loads and validates a config file and every policy it names.
    ///
    /// - Parameter memo: the parse of the file's text last time, taken when the text is the same (policy
    ///   files, target files and everything else the file names are read again in any case).
    public static func load(path: String, memo: ParsedConfigurationMemo? = nil) throws(ConfigError) -> LoadedConfiguration {
        let text = try readText(path)
        var config: ServiceConfig
        if let memo { config = try memo.parse(text, file: path) } else { config = try ServiceConfigParser.parse(text, file: path) }
        let base = (path as NSString).deletingLastPathComponent
        config.caFile = try readableFile(config.caFile, key: "trust.ca_file", config: config, path: path, base: base)
        config.clientStores = try readableFile(config.clientStores, key: "trust.client_stores", config: config, path: path, base: base)
        config.fetch.caFile = try readableFile(config.fetch.caFile, key: "fetch.ca_file", config: config, path: path, base: base)
        config.statePath = config.statePath.map { resolve($0, against: base) }
        var files: [String] = []
        for (i, pattern) in config.policies.enumerated() {
            let matches = expand(resolve(pattern, against: base))
            if matches.isEmpty {
                throw ConfigError(file: path, line: config.lines["policies[\(i)]"], key: "policies[\(i)]",
                                  message: "no policy file matches \(EchoedInput.quoted(pattern))")
            }
            files += matches.filter { !files.contains($0) }
        }
        for i in config.files.indices { config.files[i].path = resolve(config.files[i].path, against: base) }
        let fingerprint = targetFilesFingerprint(config, path: path)
        try appendTargetFiles(to: &config, path: path, base: base)
        try resolveClientIdentities(&config, path: path, base: base)
        // Every format `--policy` reads: pinguard policies, and the pin configurations apps ship, imported.
        let policies = try PolicyFilesLoader.load(files)
        var sets = policies.sets
        config.policyBundles = config.policyBundles.map { $0.mapPaths { resolve($0, against: base) } }
        let bundles = try PolicyBundleReader.read(config.policyBundles)
        for b in bundles {
            if let other = sets.first(where: { $0.name == b.bundle.name }) {
                throw ConfigError(file: path, line: b.bundle.line, key: "policy_bundles",
                                  message: "policy set name \(EchoedInput.quoted(b.bundle.name)) is already used by \(other.file ?? "another file")")
            }
            if let set = b.policySet { sets.append(set) }
        }
        let names = Set(sets.map(\.name)).union(bundles.map(\.bundle.name))
        for (i, t) in config.targets.enumerated() {
            for (j, n) in (t.policySets ?? []).enumerated() where !names.contains(n) {
                let key = "targets[\(i)].policy_sets[\(j)]"
                throw ConfigError(file: path, line: config.lines[key], key: key,
                                  message: "no loaded policy set is named \(EchoedInput.quoted(n)) (loaded: \(names.sorted().prefix(20).map { EchoedInput.quoted($0, limit: 60) }.joined(separator: ", ")))")
            }
        }
        for (i, f) in config.files.enumerated() {
            for (j, n) in (f.policySets ?? []).enumerated() where !names.contains(n) {
                let key = "files[\(i)].policy_sets[\(j)]"
                throw ConfigError(file: path, line: config.lines[key], key: key,
                                  message: "no loaded policy set is named \(EchoedInput.quoted(n))")
            }
        }
        config.ct = try CTSettingsLoader.load(config, sets: sets, path: path, base: base)
        var loaded = LoadedConfiguration(config: config, policySets: sets, path: path, targetFilesFingerprint: fingerprint,
                                         bundles: bundles)
        loaded.importFindings = policies.findings
        loaded.issuerPools = try IssuerSourcesLoader.pools(config, path: path, base: base)
        loaded.issuerCatalog = try IssuerSourcesLoader.catalog(config, base: base)
        loaded.ctKeyring = try CTSettingsLoader.keyring(config.ct, path: path)
        loaded.ctLogListKeys = try CTLogListKeysLoader.load(config, path: path, base: base)
        loaded.clientPaths = try ClientTrustStores.judge(for: sets, caFile: config.caFile, storesFile: config.clientStores)
        loaded.issuerPaths = IssuerSourcesLoader.issuerPaths(config, base: base, catalog: loaded.issuerCatalog, judge: loaded.clientPaths)
        return loaded
    }

    /// `value` (the setting `key`) resolved against the config's folder, when given; an unreadable file is an error
    /// naming the key and its line.
    static func readableFile(_ value: String?, key: String, config: ServiceConfig, path: String,
                             base: String) throws(ConfigError) -> String? {
        guard let value else { return nil }
        let resolved = resolve(value, against: base)
        do throws(RegularFileError) { try RegularFile.check(resolved) } catch {
            throw ConfigError(file: path, line: config.lines[key], key: key, message: "cannot read \(error)")
        }
        return resolved
    }

    /// Resolves the targets' client identity files against the config's folder; each must be readable (its
    /// contents are checked by the probe's `ClientIdentity.load`, which `check-config` and the service run).
    static func resolveClientIdentities(_ config: inout ServiceConfig, path: String, base: String) throws(ConfigError) {
        for i in config.targets.indices {
            guard let source = config.targets[i].clientIdentity else { continue }
            let resolved = source.mapPaths { resolve($0, against: base) }
            for (key, file) in resolved.files {
                do throws(RegularFileError) { try RegularFile.check(file) } catch {
                    let keyPath = "targets[\(i)].\(key)"
                    throw ConfigError(file: path, line: config.lines[keyPath], key: keyPath, message: "cannot read \(error)")
                }
            }
            config.targets[i].clientIdentity = resolved
        }
    }

    /// Reads every file matching `target_files` (a glob that matches nothing adds nothing, as file_sd) and
    /// appends their targets; a target name used twice is an error naming both places.
    static func appendTargetFiles(to config: inout ServiceConfig, path: String, base: String) throws(ConfigError) {
        guard !config.targetFiles.isEmpty else { return }
        var seen: [String: String] = Dictionary(minimumCapacity: config.targets.count)
        for t in config.targets { seen[t.name] = path }
        var done = Set<String>()
        for pattern in config.targetFiles {
            for file in expand(resolve(pattern, against: base)) where done.insert(file).inserted {
                for t in try TargetFileParser.parse(try readText(file), file: file, defaults: config) {
                    if let other = seen[t.name] {
                        throw ConfigError(file: file, line: nil, key: nil,
                                          message: "target \(EchoedInput.quoted(t.name)) is already defined in \(other)")
                    }
                    seen[t.name] = file
                    config.targets.append(t)
                }
            }
        }
    }

    /// The files `target_files` matches now, with their sizes and modification times: when it changes, the
    /// service reloads (a target file is picked up without SIGHUP).
    public static func targetFilesFingerprint(_ config: ServiceConfig, path: String) -> String {
        let base = (path as NSString).deletingLastPathComponent
        var parts: [String] = []
        for pattern in config.targetFiles {
            for file in expand(resolve(pattern, against: base)) {
                var st = stat()
                let state = stat(file, &st) == 0 ? "\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec):\(st.st_ino)" : "?"
                parts.append("\(file)=\(state)")
            }
        }
        return parts.joined(separator: "\n")
    }

    /// Loads policy files; set names must be unique across them.
    public static func loadPolicies(_ files: [String]) throws(ConfigError) -> [PolicySet] {
        var sets: [PolicySet] = []
        for file in files {
            let set = try PolicyParser.parse(try readText(file), file: file)
            if let other = sets.first(where: { $0.name == set.name }) {
                throw ConfigError(file: file, line: set.nameLine, key: "name",
                                  message: "policy set name \(EchoedInput.quoted(set.name)) is already used by \(other.file ?? "another file")")
            }
            sets.append(set)
        }
        return sets
    }

    /// Reads a UTF-8 text file, with an error naming it. Only a regular file is read (a FIFO or device is
    /// refused at once, never waited on), and at most `YAMLLimits.standard.maxBytes` bytes of it.
    public static func readText(_ path: String, maxBytes: Int = YAMLLimits.standard.maxBytes) throws(ConfigError) -> String {
        let bytes: [UInt8]
        do throws(RegularFileError) { bytes = try RegularFile.read(path, maxBytes: maxBytes) } catch {
            throw ConfigError(file: path, line: nil, key: nil, message: error.reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, line: nil, key: nil, message: "not UTF-8 text")
        }
        return text
    }

    static func resolve(_ p: String, against base: String) -> String {
        p.hasPrefix("/") || base.isEmpty ? p : (base as NSString).appendingPathComponent(p)
    }

    /// Glob expansion (sorted); a pattern without wildcards is returned as is when the file exists.
    public static func expand(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard glob(pattern, 0, nil, &g) == 0 else { return [] }
        return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }
}
