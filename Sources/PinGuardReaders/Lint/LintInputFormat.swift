import PinGuardCore

/// What kind of file `pinguard lint` reads (`--input-format`, or detected per file).
public enum LintInputFormat: String, Sendable, CaseIterable {
    /// A pinguard policy file (YAML).
    case policy
    /// An Info.plist (XML or binary): App Transport Security settings, `NSPinnedDomains` and a TrustKit
    /// `TSKConfiguration`, whichever it holds.
    case plist
    /// TrustKit configured in JSON, Swift or Objective-C source (in an Info.plist, `plist` reads it).
    case trustkit
    /// Android `network_security_config.xml`.
    case androidNSC = "android-nsc"
    /// OkHttp `CertificatePinner` calls in Kotlin or Java source.
    case okhttp
    /// HPKP `Public-Key-Pins` headers (header dumps, nginx or Apache directives).
    case hpkp

    /// The format of a file, from its name first and its first 64 KiB second; anything unrecognised is a
    /// policy file, so `lint` keeps reading YAML policies of any name.
    public static func detect(file: String, contents: [UInt8]) -> LintInputFormat {
        let lower = file.lowercased()
        let ext = lower.split(separator: "/").last.flatMap { name -> String? in
            guard let dot = name.lastIndex(of: ".") else { return nil }
            return String(name[name.index(after: dot)...])
        }
        let text = String(decoding: contents.prefix(65_536), as: UTF8.self)
        switch ext {
        case "yml", "yaml": return .policy
        case "plist": return .plist
        case "kt", "kts", "java": return .okhttp
        case "swift", "m", "mm", "h": return .trustkit
        case "json":
            return text.contains("NSPinnedDomains") || text.contains("NSAppTransportSecurity") ? .plist : .trustkit
        case "xml":
            return text.contains("<plist") ? .plist : .androidNSC
        default:
            break
        }
        if contents.starts(with: Array("bplist".utf8)) || text.contains("<plist") { return .plist }
        if text.contains("<network-security-config") { return .androidNSC }
        if text.contains("CertificatePinner") { return .okhttp }
        if hasHPKPHeader(text) { return .hpkp }
        return .policy
    }

    /// Whether a line starts with (or an `add_header`/`Header set` directive sends) a `Public-Key-Pins` header,
    /// also commented out (a server configuration that no longer pins); a YAML comment that merely mentions one
    /// does not count.
    static func hasHPKPHeader(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { raw in
            let line = raw.drop { $0 == " " || $0 == "\t" }
            let lower = line.lowercased()
            return lower.hasPrefix("public-key-pins") || lower.hasPrefix("< public-key-pins")
                || HPKPLines.serverDirective(String(line)) != nil || HPKPLines.isCommentedOutHeader(String(line))
        }
    }

    /// The importer that reads this format, when one does (`plist` uses two, chosen by content).
    var importFormat: PolicyImportFormat? {
        switch self {
        case .policy, .plist: return nil
        case .trustkit: return .trustkit
        case .androidNSC: return .androidNSC
        case .okhttp: return .okhttp
        case .hpkp: return .hpkp
        }
    }
}
