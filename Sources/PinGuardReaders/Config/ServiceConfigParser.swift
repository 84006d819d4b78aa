import Foundation
import PinGuardCore

/// Parses `pinguard.yml` strictly (docs/reference.md, Configuration).
public enum ServiceConfigParser {
    /// Parses the text of a config file.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> ServiceConfig {
        let root = try YAMLValue.parse(text, file: file, limits: .serviceConfig)
        let m = try root.mapping(allowed: Set(sections.map(\.key)))
        var c = ServiceConfig()
        for section in sections {
            guard let v = m[section.key], !(section.nullIsDefault && v.isNull) else { continue }
            try section.read(v, &c)
        }
        if c.timeout > c.interval {
            throw (m["timeout"] ?? root).error("timeout (\(PromDuration.format(c.timeout))) is longer than interval (\(PromDuration.format(c.interval)))")
        }
        try checkRenewalPools(c, root: m["renewal"] ?? root)
        return c
    }

    /// Every top-level key, in the order they are read: the defaults a later key inherits (`environment`,
    /// `resolve`, `max_addresses`) come before the keys that inherit them (`files`, `policy_bundles`, `targets`).
    static let sections: [Section] = [
        Section("listen", listen),
        Section("interval") { v, c throws(ConfigError) in c.interval = try v.duration(max: 86_400 * 7) },
        Section("timeout") { v, c throws(ConfigError) in c.timeout = try v.duration(max: 3_600) },
        Section("concurrency") { v, c throws(ConfigError) in c.concurrency = try v.int(in: 1...1024) },
        Section("environment") { v, c throws(ConfigError) in c.environment = try v.nonEmptyString() },
        Section("trust", nullIsDefault: true, trust),
        Section("ct", nullIsDefault: true, certificateTransparency),
        Section("resolve") { v, c throws(ConfigError) in c.resolve = try resolveMode(v) },
        Section("max_addresses") { v, c throws(ConfigError) in c.maxAddresses = try v.int(in: 1...Target.maxAddressesLimit) },
        Section("probe_allow", nullIsDefault: true) { v, c throws(ConfigError) in c.probeAllow = try probeAllowlist(v) },
        Section("fetch", nullIsDefault: true, fetch),
        Section("files") { v, c throws(ConfigError) in
            c.files = try v.sequence().map { item throws(ConfigError) in try parseFileTarget(item, defaults: c, lines: &c.lines) }
        },
        Section("target_files") { v, c throws(ConfigError) in c.targetFiles = try pathList(v, lines: &c.lines) },
        Section("expiry_warning_days") { v, c throws(ConfigError) in c.expiryWarningDays = try v.int(in: 0...3650) },
        Section("policies") { v, c throws(ConfigError) in c.policies = try pathList(v, lines: &c.lines) },
        Section("journal", nullIsDefault: true) { v, c throws(ConfigError) in
            if let e = try v.mapping(allowed: ["enabled"])["enabled"] { c.journalEnabled = try e.bool() }
        },
        Section("state", nullIsDefault: true, state),
        Section("renewal", nullIsDefault: true) { v, c throws(ConfigError) in c.renewal = try renewal(v) },
        Section("issuer_pools", nullIsDefault: true) { v, c throws(ConfigError) in c.issuerPools = try issuerPools(v) },
        Section("issuer_catalog", nullIsDefault: true) { v, c throws(ConfigError) in c.issuerCatalog = try v.nonEmptyString() },
        Section("metrics", nullIsDefault: true, metrics),
        Section("shard", nullIsDefault: true, shard),
        Section("instance", nullIsDefault: true, instance),
        Section("policy_bundles", nullIsDefault: true) { v, c throws(ConfigError) in
            c.policyBundles = try PolicyBundleParser.parse(v, defaultEnvironment: c.environment)
        },
        Section("targets", targets),
    ]

    /// `listen: ADDRESS`.
    static func listen(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        c.listen = try v.string()
        guard ListenAddress.parse(c.listen) != nil else {
            throw v.error("\(EchoedInput.quoted(c.listen)) is not a listen address (use \":9477\", \"127.0.0.1:9477\" or \"[::1]:9477\")")
        }
    }

    /// `trust: {ca_file: FILE, client_stores: FILE}`.
    static func trust(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let t = try v.mapping(allowed: ["ca_file", "client_stores"])
        if let f = t["ca_file"], !f.isNull {
            c.caFile = try f.nonEmptyString()
            c.lines[f.path] = f.line
        }
        if let f = t["client_stores"], !f.isNull {
            c.clientStores = try f.nonEmptyString()
            c.lines[f.path] = f.line
        }
    }

    /// A list of paths or globs, each one's line remembered for errors found later.
    static func pathList(_ v: YAMLValue, lines: inout [String: Int]) throws(ConfigError) -> [String] {
        try v.sequence().map { p throws(ConfigError) in
            lines[p.path] = p.line
            return try p.nonEmptyString()
        }
    }

    /// `metrics: {certificates: chain|leaf|none}`.
    static func metrics(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let mm = try v.mapping(allowed: ["certificates"])
        guard let cv = mm["certificates"] else { return }
        let text = try cv.string()
        guard let mode = CertificateSeries(rawValue: text) else {
            throw cv.error("\(EchoedInput.quoted(text)) is not one of chain, leaf, none")
        }
        c.certificateSeries = mode
    }

    /// `shard: {index, total}`.
    static func shard(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let sm = try v.mapping(allowed: ["index", "total"])
        guard let iv = sm["index"], let tv = sm["total"] else { throw v.error("shard needs both \"index\" and \"total\"") }
        let total = try tv.int(in: 1...100_000)
        let index = try iv.int(in: 0...99_999)
        guard let shard = TargetShard(index: index, total: total) else {
            throw iv.error("shard index \(index) is not below total \(total) (shards are numbered from 0)")
        }
        c.shard = shard
    }

    /// `instance: {replica, vantage}`.
    static func instance(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let m = try v.mapping(allowed: ["replica", "vantage"])
        for (key, keyPath) in [("replica", \InstanceLabels.replica), ("vantage", \InstanceLabels.vantage)] {
            guard let value = m[key], !value.isNull else { continue }
            let text = try value.string()
            guard InstanceLabels.isValid(text) else {
                throw value.error("instance.\(key) \(EchoedInput.quoted(text)) is not 1 to 63 letters, digits, \".\", \"_\" or \"-\"")
            }
            c.instance[keyPath: keyPath] = text
        }
    }

    /// `targets: [...]`, names unique.
    static func targets(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let targets = try v.sequence()
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
    }

    /// One `files:` entry: `{path, host, environment?, policy_sets?}`.
    static func parseFileTarget(_ value: YAMLValue, defaults: ServiceConfig, lines: inout [String: Int]) throws(ConfigError) -> FileTarget {
        let m = try value.mapping(allowed: ["path", "host", "environment", "policy_sets"])
        guard let pv = m["path"] else { throw value.error("missing required key \"path\" (a PEM/DER file or glob)") }
        guard let hv = m["host"] else { throw value.error("missing required key \"host\" (the name the chain will be served for)") }
        lines[value.path] = value.line
        var f = FileTarget(path: try pv.nonEmptyString(), host: try serverName(hv, hint: ""),
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

    /// `probe_allow: {hosts: [PATTERN...], networks: [CIDR...], ports: [PORT or "LOW-HIGH"...]}`.
    static func probeAllowlist(_ v: YAMLValue) throws(ConfigError) -> ProbeAllowlist {
        let m = try v.mapping(allowed: ["hosts", "networks", "ports"])
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
        if let pv = m["ports"] { allow.ports = try pv.sequence().map(probePorts) }
        return allow
    }

    /// `state: {path: FILE, retention: DURATION}` or `state: {url: postgresql://..., retention: DURATION}`.
    static func state(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let m = try v.mapping(allowed: ["path", "url", "retention"])
        if let p = m["path"] {
            c.statePath = try p.nonEmptyString()
            if let line = p.line { c.lines["state.path"] = line }
        }
        if let u = m["url"] {
            let url = try u.nonEmptyString()
            guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://"),
                  url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw u.error("\(EchoedInput.quoted(url)) is not a postgresql:// URL (postgresql://USER@HOST:PORT/DATABASE; "
                              + "give the password in ~/.pgpass or PGPASSWORD, not in the file)")
            }
            guard c.statePath == nil else { throw u.error("state.url and state.path both given; keep one (a shared database or a file)") }
            c.stateURL = url
            if let line = u.line { c.lines["state.url"] = line }
        }
        if let r = m["retention"] { c.stateRetention = try r.duration(max: 10 * 365 * 86_400) }
    }

    /// One `probe_allow.ports` entry: a port, or `"LOW-HIGH"` (inclusive).
    static func probePorts(_ item: YAMLValue) throws(ConfigError) -> ClosedRange<Int> {
        if let port = try? item.int(in: 1...65535) { return port...port }
        let text = try item.nonEmptyString()
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let low = Int(ends[0]), let high = Int(ends[1]), 1 <= low, low <= high, high <= 65535,
              ends.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else {
            throw item.error("\(EchoedInput.quoted(text)) is not a port (1-65535) or a range LOW-HIGH")
        }
        return low...high
    }

    /// `all` or `first`.
    static func resolveMode(_ v: YAMLValue) throws(ConfigError) -> ResolveMode {
        let text = try v.string()
        guard let mode = ResolveMode(rawValue: text) else { throw v.error("\(EchoedInput.quoted(text)) is not one of all, first") }
        return mode
    }

    /// The keys of a `targets` entry.
    static let targetKeys = ClientIdentityParser.keys.union(["host", "port", "connect", "environment", "name", "policy_sets",
                                                             "resolve", "max_addresses", "renewal"])

    static func parseTarget(_ value: YAMLValue, defaults: ServiceConfig, lines: inout [String: Int]) throws(ConfigError) -> Target {
        let m = try value.mapping(allowed: targetKeys)
        guard let hv = m["host"] else { throw value.error("missing required key \"host\"") }
        let host = try serverName(hv, hint: " (give the port in \"port\" and the address in \"connect\")")
        // The name is set below, once the port is known.
        var t = Target(host: host, environment: defaults.environment, name: "", resolve: defaults.resolve,
                       maxAddresses: defaults.maxAddresses)
        if let v = m["port"] { t.port = try v.int(in: 1...65535) }
        if let v = m["connect"] { t.connect = try connectList(v) }
        if let v = m["resolve"] { t.resolve = try resolveMode(v) }
        if let v = m["max_addresses"] { t.maxAddresses = try v.int(in: 1...Target.maxAddressesLimit) }
        if let v = m["environment"] { t.environment = try v.nonEmptyString() }
        if let v = m["renewal"], !v.isNull { t.renewal = try renewal(v) }
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
    /// The host name or address `v` holds, by the rule every host name follows (`Target.serverName`); the
    /// error names the value, escaped, with why and `hint`.
    static func serverName(_ v: YAMLValue, hint: String) throws(ConfigError) -> String {
        let text = try v.nonEmptyString()
        switch Target.serverName(text) {
        case .success(let name): return name
        case .failure(let why): throw v.error("\(EchoedInput.quoted(text)) is not a host name or address: \(why)\(hint)")
        }
    }

    /// `connect`: one address or name, or a list of them (each without a port; the target's port is dialled).
    static func connectList(_ v: YAMLValue) throws(ConfigError) -> [String] {
        let items: [YAMLValue] = v.isSequence ? try v.sequence() : [v]
        guard !items.isEmpty else { throw v.error("connect lists no address") }
        var out: [String] = []
        for item in items {
            let text = try serverName(item, hint: " (give the port in \"port\")")
            guard !out.contains(text) else { throw item.error("connect lists \(EchoedInput.quoted(text)) twice") }
            out.append(text)
        }
        guard out.count <= Target.maxAddressesLimit else {
            throw v.error("connect lists \(out.count) addresses; at most \(Target.maxAddressesLimit)")
        }
        return out
    }
}
