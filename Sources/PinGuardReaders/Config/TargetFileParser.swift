import PinGuardCore

/// Reads target files in Prometheus' file_sd format (`target_files` in the configuration): a list of
/// `{targets: ["HOST[:PORT]", ...], labels: {NAME: VALUE, ...}}`, as JSON or YAML.
///
/// Each target gets the configuration's defaults (environment, resolve, max_addresses), the name
/// `HOST:PORT` and its group's labels, which `pinguard_target_info` exports. Label names starting with
/// `__` are Prometheus' meta labels and are dropped; the others must be valid label names that no pinguard
/// series uses, so that joining `pinguard_target_info` onto any series cannot clash.
public enum TargetFileParser {
    /// Label names no target label may take: those of every pinguard family, and Prometheus' own.
    public static let reservedLabels: Set<String> = Set(PinGuardMetrics.all.flatMap(\.labels)).union(["instance", "job"])

    /// The targets of one file.
    public static func parse(_ text: String, file: String, defaults: ServiceConfig) throws(ConfigError) -> [Target] {
        // An empty file (a file_sd writer that has not written yet) lists no targets.
        if text.allSatisfy(\.isWhitespace) { return [] }
        let root = try YAMLValue.parse(text, file: file)
        if root.isNull { return [] }
        var out: [Target] = []
        for group in try root.sequence() {
            let m = try group.mapping(allowed: ["targets", "labels"])
            var labels: [String: String] = [:]
            if let lv = m["labels"], !lv.isNull {
                for (name, value) in try lv.entries() where !name.hasPrefix("__") {
                    guard isLabelName(name) else {
                        throw value.error("\(EchoedInput.quoted(name)) is not a label name ([a-zA-Z_][a-zA-Z0-9_]*)")
                    }
                    guard !reservedLabels.contains(name) else {
                        throw value.error("label \(EchoedInput.quoted(name)) is one pinguard's series use; rename it")
                    }
                    let v = try value.string()
                    guard v.utf8.count <= 1024 else { throw value.error("label \(EchoedInput.quoted(name)): value longer than 1024 bytes") }
                    labels[name] = v
                }
            }
            for item in try m["targets"]?.sequence() ?? [] {
                let text = try item.nonEmptyString()
                let hp: (host: String, port: Int)
                switch HostPort.parse(text) {
                case .success(let v): hp = v
                case .failure(let e): throw item.error(EchoedInput.bare(e.description))
                }
                let host: String
                switch HostName.validate(hp.host) {
                case .success(let name): host = name
                case .failure(let why): throw item.error("\(EchoedInput.quoted(hp.host)) is not a host name or address: \(why)")
                }
                var t = Target(host: host, port: hp.port, environment: defaults.environment, resolve: defaults.resolve,
                               maxAddresses: defaults.maxAddresses)
                t.labels = labels
                out.append(t)
            }
        }
        return out
    }

    /// Whether `name` is a Prometheus label name.
    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
