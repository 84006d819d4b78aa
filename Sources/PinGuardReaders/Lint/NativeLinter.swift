import Foundation
import PinGuardCore

/// `pinguard lint` on the pin configuration an app ships: the file is read by the importers (so rules and pins
/// keep the native file's lines), the policy checks run on what they read, and the platform guardrails
/// (`ATSGuardrails`, `AndroidGuardrails`) on the document itself. What the importer noticed (content the
/// platform rejects, pins it could not read) is reported as `native-config` findings.
public enum NativeLinter {
    /// The environment imported rules are put under: shipped configurations are production.
    public static let environment = "prod"

    /// Lints one native file.
    ///
    /// - Parameters:
    ///   - format: what the file is; not `.policy` (policy files are read by `ConfigurationLoader`).
    ///   - resources: for `android-nsc`, the `@raw/NAME` certificates the caller located.
    /// - Returns: the policy sets read from the file (for `--chain`) and every finding, ordered by line.
    /// - Throws: `ImportError` when the file cannot be parsed at all (malformed XML, plist or source) or goes past
    ///   one of `ImportLimits` (`ImportError.exceedsLimit`).
    public static func lint(_ bytes: [UInt8], file: String, format: LintInputFormat, now: Date,
                            publicSuffixes: PublicSuffixList, expiringWithinDays: Int = 30,
                            resources: [String: ImportResource] = [:], catalog: IssuerCatalog = .empty) throws(ImportError) -> NativeLintResult {
        guard bytes.count <= ImportSupport.maxInputBytes else {
            throw ImportError(file: file, line: nil,
                              message: "the file is \(bytes.count) bytes; lint reads native files of at most \(ImportSupport.maxInputBytes) bytes")
        }
        let name = setName(file)
        var sets: [PolicySet] = []
        var importFindings: [LintFinding] = []
        // A file past one of the import limits is unreadable, as a malformed one is, rather than a finding.
        func run(_ importFormat: PolicyImportFormat) throws(ImportError) {
            do {
                let r = try PolicyImporter.importPolicy(format: importFormat, contents: bytes, file: file, name: name,
                                                        environment: environment, resources: resources)
                sets.append(r.policySet)
                importFindings += r.findings.map { finding($0, set: name) }
            } catch {
                if error.exceedsLimit { throw error }
                importFindings += error.findings.map { finding($0, set: name) }
                importFindings.append(unread(error, format: importFormat, set: name))
            }
        }
        var guardrails: (PinnedPatterns) -> [LintFinding] = { _ in [] }
        switch format {
        case .policy:
            throw ImportError(file: file, line: nil, message: "a policy file is not a native configuration")
        case .plist:
            let (root, _) = try PropertyListDocument.parse(bytes, file: file)
            let ats = root["NSAppTransportSecurity"]
            if root["TSKConfiguration"] != nil || root["TSKPinnedDomains"] != nil { try run(.trustkit) }
            if ats?["NSPinnedDomains"] != nil || root["NSPinnedDomains"] != nil { try run(.nspinneddomains) }
            if sets.isEmpty && importFindings.isEmpty {
                importFindings.append(LintFinding(rule: .nativeConfig, severity: .info, policySet: name, environment: nil, pattern: nil,
                                                  file: file, line: nil,
                                                  message: "no TrustKit configuration and no NSPinnedDomains: the app pins nothing in this property list",
                                                  hint: "nothing to do unless the app is meant to pin here"))
            }
            guardrails = { ATSGuardrails.check(root, pinned: $0, file: file, policySet: name) }
        case .androidNSC:
            let root = try XMLTree.parse(bytes, file: file)
            guard root.name == "network-security-config" else {
                throw ImportError(file: file, line: root.line,
                                  message: "the document element is <\(root.name)>, expected <network-security-config>")
            }
            try run(.androidNSC)
            // `<debug-overrides>` is for debuggable builds: what the importer says about it is no release risk.
            let debugLines = Set(root.children(named: "debug-overrides").map(\.line))
            importFindings = importFindings.map { f in
                guard let line = f.line, debugLines.contains(line), f.severity == .warning else { return f }
                var lowered = f
                lowered.severity = .info
                return lowered
            }
            guardrails = { _ in AndroidGuardrails.check(root, file: file, policySet: name) }
        case .okhttp, .trustkit, .hpkp:
            if format == .okhttp || (format == .trustkit && TrustKitSourceReader.looksLikeSource(bytes, file: file)) {
                _ = try SourceTokenizer.tokenize(String(decoding: bytes, as: UTF8.self),
                                                 kotlin: format == .okhttp && !file.lowercased().hasSuffix(".java"), file: file)
            } else if format == .trustkit {
                _ = try PropertyListDocument.parse(bytes, file: file)
            }
            try run(format.importFormat ?? .hpkp)
        }
        let platform = guardrails(PinnedPatterns(sets))
        // A guardrail names the same line more precisely than the importer's note on it (overridePins, user anchors).
        let guarded = Set(platform.compactMap(\.line))
        let notes = importFindings.filter { $0.line.map { !guarded.contains($0) } ?? true }
        // Native formats have no pin roles ("none is marked role: backup" would fire on every domain) and no
        // environments (a file that pins nothing is already said by the importer).
        let policy = PolicyLinter.lint(sets, now: now, publicSuffixes: publicSuffixes, expiringWithinDays: expiringWithinDays,
                                       catalog: catalog)
            .filter { $0.rule != .noBackupRole && $0.rule != .emptyEnvironment }
        let all = (policy + platform + notes).enumerated()
            .sorted { ($0.element.line ?? .max, $0.offset) < ($1.element.line ?? .max, $1.offset) }
            .map(\.element)
        return NativeLintResult(policySets: sets, findings: all)
    }

    /// The policy set name of a file: its name without directory and extension.
    static func setName(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        let stem = base.contains(".") ? String(base[..<base.lastIndex(of: ".")!]) : base
        return stem.trimmingCharacters(in: .whitespaces).isEmpty ? "app" : stem
    }

    /// An importer's finding as a lint finding.
    static func finding(_ f: ImportFinding, set: String) -> LintFinding {
        let hint: String
        switch f.severity {
        case .error: hint = "fix this entry: the platform rejects it, or the pin it holds was not read"
        case .warning: hint = "check that the app behaves as intended here"
        case .info: hint = "no action needed unless this is unexpected"
        }
        // Importer messages quote the input; escape it as `ImportFinding.description` does.
        let raw = f.keyPath.map { $0.isEmpty ? f.message : "\($0): \(f.message)" } ?? f.message
        let message = EchoedInput.bare(raw, limit: 2_000)
        return LintFinding(rule: .nativeConfig, severity: f.severity, policySet: set, environment: nil, pattern: nil,
                           file: f.file, line: f.line, message: message, hint: hint)
    }

    /// The finding for an importer that read no pins: a warning when it points at a line (something there is
    /// wrong), a note when the file simply configures none.
    static func unread(_ e: ImportError, format: PolicyImportFormat, set: String) -> LintFinding {
        let severe = e.line != nil || e.findings.contains { $0.severity != .info }
        return LintFinding(rule: .nativeConfig, severity: severe ? .warning : .info, policySet: set, environment: nil, pattern: nil,
                           file: e.file, line: e.line, message: "no \(format.rawValue) pins read: \(EchoedInput.bare(e.message, limit: 2_000))",
                           hint: severe ? "fix the configuration so the pins can be read" : "nothing to do unless the app is meant to pin here")
    }
}
