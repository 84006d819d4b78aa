import PinGuardCore

/// What a file that failed to parse as the requested format looks like, so the error can name the format that
/// reads it instead of a parser's error number.
enum FormatGuess {
    /// "looks like …; use --format …", or nil when the file resembles nothing else the importers read.
    static func hint(_ bytes: [UInt8], file: String, requested: PolicyImportFormat) -> String? {
        let text = String(decoding: bytes.prefix(65_536), as: UTF8.self)
        let lower = file.lowercased()
        // A file with the requested format's own markers gets that format's error: it is that format, malformed.
        let own: [PolicyImportFormat: String] = [.trustkit: "TSK", .nspinneddomains: "NSPinnedDomains",
                                                 .androidNSC: "network-security-config", .okhttp: "CertificatePinner"]
        if looksLikeMarkdown(text, file: file) {
            return "this looks like Markdown (a README), not \(reads[requested] ?? "a pin configuration")"
        }
        if let marker = own[requested], text.contains(marker) { return nil }
        if requested == .hpkp, text.lowercased().contains("public-key-pins") { return nil }
        let looksSwiftOrObjC = [".swift", ".m", ".mm", ".h"].contains { lower.hasSuffix($0) }
            || text.contains("#import") || text.contains("import Foundation") || text.contains("import UIKit")
        if looksSwiftOrObjC {
            return requested == .trustkit ? nil
                : "this looks like Swift or Objective-C source; --format trustkit reads a TrustKit configuration written in code"
        }
        if lower.hasSuffix(".kt") || lower.hasSuffix(".java") || text.contains("CertificatePinner") {
            return requested == .okhttp ? nil : "this looks like Kotlin or Java source; --format okhttp reads CertificatePinner calls"
        }
        if text.contains("<network-security-config") {
            return requested == .androidNSC ? nil : "this looks like an Android network security config; use --format android-nsc"
        }
        if text.contains("NSPinnedDomains") {
            return requested == .nspinneddomains ? nil : "this looks like an Info.plist with NSPinnedDomains; use --format nspinneddomains"
        }
        if text.contains("TSKPinnedDomains") || text.contains("TSKConfiguration") {
            return requested == .trustkit ? nil : "this looks like a TrustKit configuration; use --format trustkit"
        }
        if text.lowercased().contains("public-key-pins") {
            return requested == .hpkp ? nil : "this looks like HPKP headers or a server configuration; use --format hpkp"
        }
        return nil
    }

    /// What each format reads, for "this looks like …, not …".
    static let reads: [PolicyImportFormat: String] = [
        .hpkp: "HTTP headers or a server configuration", .okhttp: "Kotlin or Java source",
        .trustkit: "an Info.plist, JSON or source configuring TrustKit", .nspinneddomains: "an Info.plist",
        .androidNSC: "an Android network security config",
    ]

    /// Whether `text` (named `file`) is Markdown: a `.md`/`.markdown` file, a `README`, or a fenced code block.
    static func looksLikeMarkdown(_ text: String, file: String) -> Bool {
        let base = (file.split(separator: "/").last.map(String.init) ?? file).lowercased()
        if [".md", ".markdown", ".mdown"].contains(where: { base.hasSuffix($0) }) || base.hasPrefix("readme") { return true }
        return text.split(whereSeparator: \.isNewline).contains { $0.drop { $0 == " " }.hasPrefix("```") }
    }
}
