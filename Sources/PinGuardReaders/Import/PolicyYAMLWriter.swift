import Foundation
import PinGuardCore

/// Writes a policy file (docs/reference.md, Policy files and Evaluation) with comments: a header, and before each rule the lines naming its source.
enum PolicyYAMLWriter {
    /// The whole file for one policy set with one environment.
    static func write(_ set: PolicySet, environment: String, rules: [ImportedRule], header: [String]) -> String {
        var out: [String] = header.map { comment($0, indent: 0) }
        out.append("name: \(scalar(set.name))")
        if let version = set.version { out.append("version: \(quoted(version))") }
        out.append("client: \(set.client.rawValue)")
        if let versions = set.clientVersions { out.append("client_versions: \(quoted(versions.description))") }
        if let ct = set.certificateTransparency { out.append("certificate_transparency: \(ct.rawValue)") }
        out.append("environments:")
        out.append("  \(scalar(environment)):")
        out.append(rules.isEmpty ? "    policies: []" : "    policies:")
        for rule in rules {
            out += rule.origin.map { comment($0, indent: 6) }
            out.append("      - pattern: \(scalar(rule.pattern.description))")
            out.append("        policy:")
            out += policy(rule.policy, indent: 10)
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The keys of one `policy:` mapping; defaults are written out so a reviewer sees every decision.
    static func policy(_ p: HostPolicy, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var out: [String] = []
        if p.pins.isEmpty {
            out.append("\(pad)pins: []")
        } else {
            out.append("\(pad)pins:")
            for pin in p.pins { out.append("\(pad)  - \(flow(pin))") }
        }
        if p.matchMode != .any { out.append("\(pad)match: \(p.matchMode.rawValue)") }
        out.append("\(pad)fail_strategy: \(p.failStrategy.rawValue)")
        out.append("\(pad)require_system_trust: \(p.requireSystemTrust)")
        out.append("\(pad)allow_system_trust_fallback: \(p.allowSystemTrustFallback)")
        if let e = p.expires { out.append("\(pad)expires: \(RFC3339.format(e))") }
        if let ct = p.certificateTransparency { out.append("\(pad)certificate_transparency: \(ct.rawValue)") }
        return out
    }

    /// `{type: spki, hash: "…", role: primary, scope: any}` (plus `algorithm` when not SHA-256, `group` when set).
    static func flow(_ pin: Pin) -> String {
        var parts = ["type: \(pin.type.rawValue)", "hash: \(quoted(pin.hash))"]
        if pin.algorithm != .sha256 { parts.append("algorithm: \(pin.algorithm.rawValue)") }
        parts += ["role: \(pin.role.rawValue)", "scope: \(pin.scope.rawValue)"]
        if let g = pin.group { parts.append("group: \(scalar(g))") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// A comment line; line breaks (as YAML counts them) and characters YAML refuses become spaces.
    static func comment(_ text: String, indent: Int) -> String {
        var flat = ""
        flat.unicodeScalars.append(contentsOf: text.unicodeScalars.map { $0 != "\t" && mustEscape($0) ? " " : $0 })
        return String(repeating: " ", count: indent) + (flat.isEmpty ? "#" : "# " + flat)
    }

    /// True for what YAML cannot carry as is: the line breaks libyaml recognises (LF, CR, U+0085 NEL,
    /// U+2028, U+2029), characters outside YAML's printable set (C0 and C1 controls except tab, DEL,
    /// U+FFFE, U+FFFF) and U+FEFF, a byte order mark.
    static func mustEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09, 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF:
            return false
        default:
            return true
        }
    }

    static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]

    /// A plain scalar when that reads back as the same string, else a double-quoted one.
    static func scalar(_ s: String) -> String {
        guard let first = s.unicodeScalars.first, CharacterSet.letters.contains(first), first.isASCII,
              !reserved.contains(s.lowercased()) else { return quoted(s) }
        let ok = s.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-/".unicodeScalars.contains($0))
        }
        return ok ? s : quoted(s)
    }

    /// A double-quoted YAML scalar.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if mustEscape(u) {
                    out += escape(u)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// `\xHH`, `\uHHHH` or `\UHHHHHHHH` for a scalar (YAML double-quoted escapes are code points).
    static func escape(_ u: Unicode.Scalar) -> String {
        let (prefix, width) = u.value <= 0xFF ? ("\\x", 2) : u.value <= 0xFFFF ? ("\\u", 4) : ("\\U", 8)
        let hex = String(u.value, radix: 16, uppercase: true)
        return prefix + String(repeating: "0", count: max(0, width - hex.count)) + hex
    }
}
