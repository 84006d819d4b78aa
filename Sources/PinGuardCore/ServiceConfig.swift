import Foundation

/// One configured probe target (docs/reference.md, Configuration).
public struct Target: Sendable, Equatable {
    /// Server name: SNI, hostname check, pattern matching.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Addresses (or names) to dial instead of resolving `host`; empty = resolve `host`.
    public var connect: [String]
    /// Which resolved addresses are probed.
    public var resolve: ResolveMode
    /// At most this many addresses are probed (`max_addresses`); the rest are counted as skipped.
    public var maxAddresses: Int
    /// Environment whose policies apply.
    public var environment: String
    /// Label value `target`; default `host:port`.
    public var name: String
    /// Policy sets named explicitly; nil = every loaded set that covers the host.
    public var policySets: [String]?
    /// mTLS client identity sent when the server asks for a client certificate; nil = none.
    public var clientIdentity: ClientIdentitySource?
    /// Labels from a target file (`target_files`), exported by `pinguard_target_info`.
    public var labels: [String: String] = [:]

    /// Creates a target.
    public init(host: String, port: Int = 443, connect: [String] = [], environment: String = "prod",
                name: String? = nil, policySets: [String]? = nil, resolve: ResolveMode = .all,
                maxAddresses: Int = Target.defaultMaxAddresses) {
        self.host = host
        self.port = port
        self.connect = connect
        self.resolve = resolve
        self.maxAddresses = maxAddresses
        self.environment = environment
        self.name = name ?? Target.defaultName(host: host, port: port)
        self.policySets = policySets
    }

    /// Addresses probed per target unless `max_addresses` says otherwise.
    public static let defaultMaxAddresses = 16
    /// The largest `max_addresses` accepted.
    public static let maxAddressesLimit = 256

    /// Whether `other` probes the same endpoints the same way (results of one stand for the other).
    public func probesSameEndpoint(as other: Target) -> Bool {
        host == other.host && port == other.port && connect == other.connect && resolve == other.resolve
            && maxAddresses == other.maxAddresses && labels == other.labels && clientIdentity == other.clientIdentity
    }

    /// Whether `text` can be a server name or address to dial: no `/` or space, and a `:` only inside an
    /// IPv6 literal (ports are given apart). Character by character, not through Foundation's substring search.
    public static func isServerName(_ text: String) -> Bool {
        !contains(text, "/") && !contains(text, " ") && (!contains(text, ":") || IPv6Literal.isValid(text))
    }

    /// `host:port`, with an IPv6 address in brackets.
    public static func defaultName(host: String, port: Int) -> String {
        contains(host, ":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether `text` has the character `ascii`, as `String.contains(Character)` says (a `/` followed by a
    /// combining mark is another character). In ASCII text every character is one byte but `\r\n`, so
    /// the bytes answer there, without the grapheme breaking that cost a tenth of loading 100,000 targets.
    static func contains(_ text: String, _ ascii: Unicode.Scalar) -> Bool {
        var found = false
        for byte in text.utf8 {
            if byte >= 0x80 { return text.contains(Character(ascii)) }
            if byte == UInt8(ascii: ascii) { found = true }
        }
        return found
    }
}

/// The service configuration (`pinguard.yml`), after defaults and validation.
public struct ServiceConfig: Sendable, Equatable {
    /// HTTP listen address, e.g. `:9477`.
    public var listen: String = ":9477"
    /// Seconds between probe rounds.
    public var interval: Double = 300
    /// Seconds per probe (resolve + connect + handshake).
    public var timeout: Double = 10
    /// Probes in flight.
    public var concurrency: Int = 32
    /// Default environment of targets.
    public var environment: String = "prod"
    /// CA bundle instead of the system trust store (resolved against the config's folder).
    public var caFile: String?
    /// Threshold in days for `expiry_warning` and `pin_breakage_imminent`.
    public var expiryWarningDays: Int = 30
    /// Policy files or globs, as written (relative to the config's folder).
    public var policies: [String] = ["policies/*.yml"]
    /// Whether to write journal events.
    public var journalEnabled: Bool = true
    /// Which addresses of a name are probed unless a target says otherwise (`resolve`).
    public var resolve: ResolveMode = .all
    /// Addresses probed per target unless a target says otherwise (`max_addresses`).
    public var maxAddresses: Int = Target.defaultMaxAddresses
    /// Which targets `GET /probe` may probe (`probe_allow`); nil: /probe is refused.
    public var probeAllow: ProbeAllowlist?
    /// Target files in Prometheus file_sd format (`target_files`), globs as written (relative to the
    /// config's folder); their targets follow `targets`.
    public var targetFiles: [String] = []
    /// Certificate files judged like served chains (`files`).
    public var files: [FileTarget] = []
    /// Targets.
    public var targets: [Target] = []
    /// Which chain certificates get per-certificate series (`metrics.certificates`).
    public var certificateSeries: CertificateSeries = .chain
    /// The slice of the targets this instance probes (`shard: {index, total}`); nil = all of them.
    public var shard: TargetShard?
    /// Signed remote pin bundles evaluated as policy sets (`policy_bundles`).
    public var policyBundles: [PolicyBundle] = []
    /// Source line of some keys, by key path (`trust.ca_file`, `policies[0]`, `targets[1].policy_sets[0]`),
    /// for errors found after parsing (a missing file, an unknown policy set).
    public var lines: [String: Int] = [:]

    /// A configuration with every default.
    public init() {}
}

/// Parses `pinguard.yml` strictly (docs/reference.md, Configuration).
public enum ServiceConfigParser {
    /// Parses the text of a config file.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> ServiceConfig {
        let root = try YAMLValue.parse(text, file: file, limits: .serviceConfig)
        let m = try root.mapping(allowed: ["listen", "interval", "timeout", "concurrency", "environment", "trust",
                                           "expiry_warning_days", "policies", "journal", "targets", "shard", "metrics",
                                           "resolve", "max_addresses", "probe_allow", "target_files", "files",
                                           "policy_bundles"])
        var c = ServiceConfig()
        if let v = m["listen"] {
            c.listen = try v.string()
            guard ListenAddress.parse(c.listen) != nil else {
                throw v.error("\(EchoedInput.quoted(c.listen)) is not a listen address (use \":9477\", \"127.0.0.1:9477\" or \"[::1]:9477\")")
            }
        }
        if let v = m["interval"] { c.interval = try v.duration(max: 86_400 * 7) }
        if let v = m["timeout"] { c.timeout = try v.duration(max: 3_600) }
        if let v = m["concurrency"] { c.concurrency = try v.int(in: 1...1024) }
        if let v = m["environment"] { c.environment = try v.nonEmptyString() }
        if let v = m["trust"], !v.isNull {
            let t = try v.mapping(allowed: ["ca_file"])
            if let f = t["ca_file"], !f.isNull {
                c.caFile = try f.nonEmptyString()
                c.lines[f.path] = f.line
            }
        }
        if let v = m["resolve"] { c.resolve = try resolveMode(v) }
        if let v = m["probe_allow"], !v.isNull { c.probeAllow = try probeAllowlist(v) }
        if let v = m["files"] {
            c.files = try v.sequence().map { item throws(ConfigError) in try parseFileTarget(item, defaults: c, lines: &c.lines) }
        }
        if let v = m["target_files"] {
            c.targetFiles = try v.sequence().map { p throws(ConfigError) in
                c.lines[p.path] = p.line
                return try p.nonEmptyString()
            }
        }
        if let v = m["max_addresses"] { c.maxAddresses = try v.int(in: 1...Target.maxAddressesLimit) }
        if let v = m["expiry_warning_days"] { c.expiryWarningDays = try v.int(in: 0...3650) }
        if let v = m["policies"] {
            c.policies = try v.sequence().map { p throws(ConfigError) in
                c.lines[p.path] = p.line
                return try p.nonEmptyString()
            }
        }
        if let v = m["journal"], !v.isNull {
            let j = try v.mapping(allowed: ["enabled"])
            if let e = j["enabled"] { c.journalEnabled = try e.bool() }
        }
        if let v = m["metrics"], !v.isNull {
            let mm = try v.mapping(allowed: ["certificates"])
            if let cv = mm["certificates"] {
                let text = try cv.string()
                guard let mode = CertificateSeries(rawValue: text) else {
                    throw cv.error("\(EchoedInput.quoted(text)) is not one of leaf, chain")
                }
                c.certificateSeries = mode
            }
        }
        if let v = m["shard"], !v.isNull {
            let sm = try v.mapping(allowed: ["index", "total"])
            guard let iv = sm["index"], let tv = sm["total"] else { throw v.error("shard needs both \"index\" and \"total\"") }
            let total = try tv.int(in: 1...100_000)
            let index = try iv.int(in: 0...99_999)
            guard let shard = TargetShard(index: index, total: total) else {
                throw iv.error("shard index \(index) is not below total \(total) (shards are numbered from 0)")
            }
            c.shard = shard
        }
        if c.timeout > c.interval {
            throw (m["timeout"] ?? root).error("timeout (\(PromDuration.format(c.timeout))) is longer than interval (\(PromDuration.format(c.interval)))")
        }
        if let v = m["policy_bundles"], !v.isNull { c.policyBundles = try PolicyBundleParser.parse(v, defaultEnvironment: c.environment) }
        let targets = try m["targets"]?.sequence() ?? []
        var names: [String: Int] = Dictionary(minimumCapacity: targets.count)
        c.targets.reserveCapacity(targets.count)
        for tv in targets {
            let t = try parseTarget(tv, defaults: c, lines: &c.lines)
            if let first = names[t.name] {
                throw tv.error("target name \(EchoedInput.quoted(t.name)) is already used on line \(first); set a distinct name")
            }
            names[t.name] = tv.line ?? 0
            c.targets.append(t)
        }
        return c
    }

    /// One `files:` entry: `{path, host, environment?, policy_sets?}`.
    static func parseFileTarget(_ value: YAMLValue, defaults: ServiceConfig, lines: inout [String: Int]) throws(ConfigError) -> FileTarget {
        let m = try value.mapping(allowed: ["path", "host", "environment", "policy_sets"])
        guard let pv = m["path"] else { throw value.error("missing required key \"path\" (a PEM/DER file or glob)") }
        guard let hv = m["host"] else { throw value.error("missing required key \"host\" (the name the chain will be served for)") }
        lines[value.path] = value.line
        var f = FileTarget(path: try pv.nonEmptyString(), host: HostPattern.normalize(try hv.nonEmptyString()),
                           environment: defaults.environment)
        if let v = m["environment"] { f.environment = try v.nonEmptyString() }
        if let v = m["policy_sets"] {
            f.policySets = try v.sequence().map { item throws(ConfigError) in
                lines[item.path] = item.line
                return try item.nonEmptyString()
            }
        }
        return f
    }

    /// `probe_allow: {hosts: [PATTERN...], networks: [CIDR...]}`.
    static func probeAllowlist(_ v: YAMLValue) throws(ConfigError) -> ProbeAllowlist {
        let m = try v.mapping(allowed: ["hosts", "networks"])
        guard let hv = m["hosts"] else { throw v.error("probe_allow needs \"hosts\": the name patterns /probe may probe") }
        var hosts: [HostPattern] = []
        for item in try hv.sequence() {
            let text = try item.nonEmptyString()
            do { hosts.append(try HostPattern.parse(text)) } catch { throw item.error("\(EchoedInput.quoted(text)): \(error.message)") }
        }
        var allow = ProbeAllowlist(hosts: hosts)
        if let nv = m["networks"] {
            allow.networks = try nv.sequence().map { item throws(ConfigError) in
                let text = try item.nonEmptyString()
                guard let n = IPNetwork(text) else { throw item.error("\(EchoedInput.quoted(text)) is not an address or network (CIDR)") }
                return n
            }
        }
        return allow
    }

    /// `all` or `first`.
    static func resolveMode(_ v: YAMLValue) throws(ConfigError) -> ResolveMode {
        let text = try v.string()
        guard let mode = ResolveMode(rawValue: text) else { throw v.error("\(EchoedInput.quoted(text)) is not one of all, first") }
        return mode
    }

    /// The keys of a `targets` entry.
    static let targetKeys = ClientIdentityParser.keys.union(["host", "port", "connect", "environment", "name", "policy_sets",
                                                             "resolve", "max_addresses"])

    static func parseTarget(_ value: YAMLValue, defaults: ServiceConfig, lines: inout [String: Int]) throws(ConfigError) -> Target {
        let m = try value.mapping(allowed: targetKeys)
        guard let hv = m["host"] else { throw value.error("missing required key \"host\"") }
        var host = HostPattern.normalize(try hv.nonEmptyString())
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if !Target.isServerName(host) {
            throw hv.error("\(EchoedInput.quoted(host)) is not a host name (give the port in \"port\" and the address in \"connect\")")
        }
        // The name is set below, once the port is known.
        var t = Target(host: host, environment: defaults.environment, name: "", resolve: defaults.resolve,
                       maxAddresses: defaults.maxAddresses)
        if let v = m["port"] { t.port = try v.int(in: 1...65535) }
        if let v = m["connect"] { t.connect = try connectList(v) }
        if let v = m["resolve"] { t.resolve = try resolveMode(v) }
        if let v = m["max_addresses"] { t.maxAddresses = try v.int(in: 1...Target.maxAddressesLimit) }
        if let v = m["environment"] { t.environment = try v.nonEmptyString() }
        t.name = try m["name"].map { v throws(ConfigError) in try v.nonEmptyString() } ?? Target.defaultName(host: host, port: t.port)
        if let v = m["policy_sets"] {
            var names: [String] = []
            for item in try v.sequence() {
                let name = try item.nonEmptyString()
                if names.contains(name) { throw item.error("policy set \(EchoedInput.quoted(name)) is named twice") }
                names.append(name)
                lines[item.path] = item.line
            }
            t.policySets = names
        }
        t.clientIdentity = try ClientIdentityParser.parse(m, lines: &lines)
        return t
    }
}

extension ServiceConfigParser {
    /// `connect`: one address or name, or a list of them (each without a port; the target's port is dialled).
    static func connectList(_ v: YAMLValue) throws(ConfigError) -> [String] {
        let items: [YAMLValue] = v.isSequence ? try v.sequence() : [v]
        guard !items.isEmpty else { throw v.error("connect lists no address") }
        var out: [String] = []
        for item in items {
            var text = try item.nonEmptyString()
            if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
            if !Target.isServerName(text) {
                throw item.error("\(EchoedInput.quoted(text)) is not an address or host name (give the port in \"port\")")
            }
            guard !out.contains(text) else { throw item.error("connect lists \(EchoedInput.quoted(text)) twice") }
            out.append(text)
        }
        guard out.count <= Target.maxAddressesLimit else {
            throw v.error("connect lists \(out.count) addresses; at most \(Target.maxAddressesLimit)")
        }
        return out
    }
}

/// A parsed `listen` address.
public struct ListenAddress: Sendable, Equatable {
    /// Host to bind; `nil` = all addresses.
    public var host: String?
    /// TCP port.
    public var port: Int

    /// Parses `:9477`, `127.0.0.1:9477`, `[::1]:9477`, `localhost:9477`.
    public static func parse(_ text: String) -> ListenAddress? {
        // Host names are at most 253 bytes; checking the length first keeps a huge value cheap.
        guard text.utf8.count <= 300, let colon = text.utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        guard let port = Int(text[text.utf8.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        else if host.contains(Character(":")) { return nil }
        return ListenAddress(host: host.isEmpty ? nil : host, port: port)
    }
}

/// Recognises IPv6 address literals (RFC 4291 text forms, with an optional embedded IPv4 tail).
public enum IPv6Literal {
    /// Whether `text` is an IPv6 address such as `::1`, `fe80::1` or `::ffff:192.0.2.1`.
    public static func isValid(_ text: String) -> Bool {
        let doubles = text.components(separatedBy: "::")
        guard doubles.count <= 2 else { return false }
        var groups: [Substring] = []
        for part in doubles where !part.isEmpty {
            groups += part.split(separator: ":", omittingEmptySubsequences: false)
        }
        var count = 0
        for (i, g) in groups.enumerated() {
            if i == groups.count - 1 && g.contains(".") {
                let octets = g.split(separator: ".", omittingEmptySubsequences: false)
                guard octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }) else { return false }
                count += 2
                continue
            }
            guard (1...4).contains(g.count), g.allSatisfy(\.isHexDigit) else { return false }
            count += 1
        }
        return doubles.count == 2 ? count <= 7 : count == 8
    }
}
