import Foundation
import PinGuardCore

/// Reads the pin configurations apps ship and turns them into pinguard policy sets (`pinguard import`).
public enum PolicyImporter {
    /// Imports one file.
    ///
    /// - Parameters:
    ///   - format: what the file is.
    ///   - contents: the file's bytes (binary plists are bytes, not text).
    ///   - file: the file's name, used in findings, errors and the YAML comments.
    ///   - name: the policy set name (the policy file's `name`; docs/reference.md, Policy files); for `hpkp`, also the host of headers that have none.
    ///   - environment: the environment the imported rules are put under.
    ///   - defines: values of names the file uses but does not define (`--define NAME=VALUE`: BuildConfig fields,
    ///     string resources); read by the source formats (`trustkit` source, `okhttp`), ignored by the others.
    ///   - resources: for `android-nsc`, the `@raw/NAME` certificates the caller located (by `src` as written).
    ///   - targetSDK: for `android-nsc`, the API level the app targets (`--target-sdk`), which sets Android's
    ///     default for Certificate Transparency; nil when not known.
    ///   - minimumVersion: the lowest version of its client the app runs on (an Android app's `minSdk`, an iOS
    ///     app's deployment target): the set's `client_versions` become `"MIN-"`; nil when not known. Read for
    ///     the formats whose client has versions (`android-nsc`, `trustkit`, `nspinneddomains`).
    /// - Returns: the policy set, its YAML, and every finding; content the model cannot express (other
    ///   digests, malformed hashes, missing keys) is reported as a finding, never dropped silently. A valid
    ///   configuration that pins nothing is a result without rules and the finding "the app pins nothing".
    /// - Throws: `ImportError` when the input is unparseable, larger than 4 MiB, or nothing usable is in it.
    public static func importPolicy(format: PolicyImportFormat, contents: [UInt8], file: String, name: String,
                                    environment: String, defines: [String: String] = [:],
                                    resources: [String: ImportResource] = [:], targetSDK: Int? = nil,
                                    minimumVersion: Int? = nil) throws(ImportError) -> ImportResult {
        for (what, value) in [("policy set name", name), ("environment", environment)]
        where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ImportError(file: file, line: nil, message: "the \(what) must not be empty")
        }
        guard contents.count <= ImportSupport.maxInputBytes else {
            throw ImportError(file: file, line: nil,
                              message: "the file is \(contents.count) bytes; the importers read at most \(ImportSupport.maxInputBytes) bytes")
        }
        var draft = ImportDraft(file: file, format: format)
        if format.client == .android || format.client == .ios {
            draft.clientVersions = minimumVersion.map { ClientVersions(lower: $0, upper: nil) }
        }
        do {
            switch format {
            case .trustkit: try TrustKitImporter.run(contents, defines: defines, into: &draft)
            case .nspinneddomains: try NSPinnedDomainsImporter.run(contents, into: &draft)
            case .androidNSC: try AndroidNSCImporter.run(contents, resources: resources, targetSDK: targetSDK, into: &draft)
            case .okhttp: try OkHttpImporter.run(contents, defines: defines, into: &draft)
            case .hpkp: try HPKPImporter.run(contents, name: name, into: &draft)
            }
            return try draft.finish(name: name, environment: environment)
        } catch {
            var refusal = error
            refusal.findings = ImportDraft.byLine(refusal.findings)
            if refusal.undefinedNames.isEmpty && !refusal.exceedsLimit { refusal.undefinedNames = draft.undefinedNames }
            // A file of another format fails with that format's parser error; say what it looks like instead.
            guard let hint = FormatGuess.hint(contents, file: file, requested: format) else { throw refusal }
            refusal.message += "; \(hint)"
            throw refusal
        }
    }
}
