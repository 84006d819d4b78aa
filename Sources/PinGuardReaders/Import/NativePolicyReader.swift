import PinGuardCore

/// Reads a pin configuration an app ships as policy sets, as `pinguard import` reads it, for every command that
/// takes a policy file (`probe --policy`, `plan --policy`): the format named or detected (`LintInputFormat`), an
/// Info.plist through whichever of TrustKit and NSPinnedDomains it holds.
public enum NativePolicyReader {
    /// The policy sets read from one native file and what the importers noticed on the way.
    public struct Read: Sendable, Equatable {
        /// One set per importer that read the file (two for an Info.plist holding both TrustKit and NSPinnedDomains).
        public var sets: [PolicySet]
        /// Every importer finding, in the order the importers ran.
        public var findings: [ImportFinding]
    }

    /// The importers that read `bytes` in `format`: one, or for an Info.plist those of the configurations it holds.
    /// - Throws: `ImportError` when the file is a policy file, an unreadable property list, or a property list
    ///   with neither configuration.
    public static func importFormats(_ bytes: [UInt8], file: String, format: LintInputFormat) throws(ImportError) -> [PolicyImportFormat] {
        if let single = format.importFormat { return [single] }
        guard format == .plist else {
            throw ImportError(file: file, line: nil, message: "a pinguard policy file, not a pin configuration an app ships")
        }
        let (root, _) = try PropertyListDocument.parse(bytes, file: file)
        var formats: [PolicyImportFormat] = []
        if root["TSKConfiguration"] != nil || root["TSKPinnedDomains"] != nil { formats.append(.trustkit) }
        if root["NSAppTransportSecurity"]?["NSPinnedDomains"] != nil || root["NSPinnedDomains"] != nil {
            formats.append(.nspinneddomains)
        }
        guard !formats.isEmpty else {
            throw ImportError(file: file, line: nil, message: "no TrustKit configuration and no NSPinnedDomains: the app pins nothing in this property list")
        }
        return formats
    }

    /// The policy sets of one native file, named `name` (the second of an Info.plist's two `NAME-nspinneddomains`),
    /// in environment `environment`.
    public static func read(_ bytes: [UInt8], file: String, format: LintInputFormat, name: String, environment: String = "prod",
                            resources: [String: ImportResource] = [:]) throws(ImportError) -> Read {
        var read = Read(sets: [], findings: [])
        let formats = try importFormats(bytes, file: file, format: format)
        for importFormat in formats {
            let setName = read.sets.isEmpty ? name : "\(name)-\(importFormat.rawValue)"
            let r = try PolicyImporter.importPolicy(format: importFormat, contents: bytes, file: file, name: setName,
                                                    environment: environment, resources: resources)
            read.sets.append(r.policySet)
            read.findings += r.findings
        }
        return read
    }
}
