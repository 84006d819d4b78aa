import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardReaders

extension PolicyImportFormat: ExpressibleByArgument {}

/// `pinguard import`: turns a shipped pin configuration into a policy file.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert the pin configuration an app ships (TrustKit, NSPinnedDomains, Android NSC, OkHttp, HPKP) into a policy file.",
        discussion: """
        Writes the policy YAML to stdout (or --output) with a comment on each rule saying where it came from; \
        findings (unsupported digests, malformed hashes, ignored settings) go to stderr with file and line. \
        Names the source uses but does not define are listed on a last line of --define flags to pass. \
        Exit status: 0 imported (also a valid configuration that pins nothing), 1 imported but some content was refused \
        (error findings), 2 nothing importable.
        """)

    @Option(name: [.customLong("input-format"), .customLong("format")],
            help: "Input format: trustkit, nspinneddomains, android-nsc, okhttp, hpkp (default: named from the file, as lint does; --format is the older spelling).")
    var format: PolicyImportFormat?

    @Argument(help: "The file the app ships (Info.plist, JSON, network_security_config.xml, Kotlin/Java source, headers).")
    var file: String

    @Option(help: "Policy set name (default: the file name without extension); for hpkp also the host when headers name none.")
    var name: String?

    @Option(help: "Environment the rules go under.")
    var environment = "prod"

    @Option(help: "Write the policy here instead of stdout.")
    var output: String?

    @Option(name: .customLong("define"), help: ArgumentHelp(
        "A value the source uses but does not define (BuildConfig field, string resource): NAME=VALUE. Repeatable.",
        valueName: "NAME=VALUE"))
    var define: [String] = []

    @Option(help: ArgumentHelp("A file of NAME=VALUE lines, as for --define (blank lines and lines starting with # skipped).",
                               valueName: "FILE"))
    var defines: String?

    @Option(name: .customLong("target-sdk"), help: ArgumentHelp(
        "android-nsc: the API level the app targets; Android checks Certificate Transparency by default from 37 (Android 17).",
        valueName: "N"))
    var targetSDK: Int?

    @Option(help: ArgumentHelp("android-nsc: the app's AndroidManifest.xml or Gradle build file, read for the API level it targets (instead of --target-sdk).",
                               valueName: "FILE"))
    var manifest: String?

    @Option(help: ArgumentHelp("The Android app's res/ directory, where @raw/NAME trust anchors are looked up (default: the res/ the XML is in).",
                               valueName: "DIR"))
    var res: String?

    func validate() throws {
        if targetSDK != nil && manifest != nil { throw ValidationError("give the target SDK with --target-sdk or --manifest, not both") }
        if let targetSDK, !(1...10_000).contains(targetSDK) { throw ValidationError("--target-sdk must be an API level, 1...10000") }
    }

    func run() throws {
        let values = try readDefines()
        let data = try InputFile.bytes(file, limit: ImportLimits.maxInputBytes, what: "a file the importers read")
        let setName = name ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let format = try self.format ?? detectedFormat([UInt8](data))
        let targetSDK = try appTargetSDK()
        let result: ImportResult
        do {
            result = try PolicyImporter.importPolicy(format: format, contents: [UInt8](data), file: file, name: setName,
                                                     environment: environment, defines: values,
                                                     resources: format == .androidNSC
                                                         ? AndroidResources.resolve(xml: [UInt8](data), xmlPath: file, resDir: res) : [:],
                                                     targetSDK: targetSDK)
        } catch {
            for f in error.findings { printError(f.description) }
            printError("pinguard: \(error)")
            if let supply = DefineSuggestion.line(error.undefinedNames) { printError("pinguard: \(supply)") }
            throw Exit.configuration
        }
        for f in result.findings { printError(f.description) }
        if let supply = DefineSuggestion.line(result.undefinedNames) { printError("pinguard: \(supply)") }
        if let output {
            do { try result.yaml.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                printError("pinguard: \(output): \(error.localizedDescription)")
                throw Exit.configuration
            }
        } else {
            print(result.yaml, terminator: "")
        }
        if result.findings.contains(where: { $0.severity == .error }) { throw Exit.rejected }
    }

    /// The format of a file given without `--input-format`, named as `lint` names it; a file that is none of them,
    /// or an Info.plist holding both TrustKit and NSPinnedDomains, is exit 2 asking for the flag.
    func detectedFormat(_ bytes: [UInt8]) throws -> PolicyImportFormat {
        let kind = LintInputFormat.detect(file: file, contents: bytes)
        let names = PolicyImportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard kind != .policy else {
            printError("pinguard: \(EchoedInput.bare(file)): not a format import names by itself; give --input-format (\(names))")
            throw Exit.configuration
        }
        let formats: [PolicyImportFormat]
        do { formats = try NativePolicyReader.importFormats(bytes, file: file, format: kind) } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        guard formats.count == 1 else {
            printError("pinguard: \(EchoedInput.bare(file)) holds both a TrustKit configuration and NSPinnedDomains; give --input-format trustkit or nspinneddomains")
            throw Exit.configuration
        }
        printError("pinguard: \(EchoedInput.bare(file)): read as \(formats[0].rawValue)")
        return formats[0]
    }

    /// `--target-sdk`, or the level `--manifest` declares (said on stderr); a manifest that declares none is exit 2.
    func appTargetSDK() throws -> Int? {
        guard let manifest else { return targetSDK }
        let bytes = try InputFile.bytes(manifest, limit: AndroidTargetSDK.maxBytes, what: "an AndroidManifest.xml or Gradle file")
        do {
            let (sdk, line) = try AndroidTargetSDK.read([UInt8](bytes), file: manifest)
            printError("pinguard: \(EchoedInput.bare(manifest)):\(line): the app targets API level \(sdk)")
            return sdk
        } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
    }

    /// `--defines FILE` then `--define` values (a `--define` wins over the file); a malformed entry or more than
    /// `DefinesFile.maxDefinitions` in all is a usage error whose echo is quoted and escaped.
    func readDefines() throws -> [String: String] {
        var entries: [(name: String, value: String)] = []
        if let defines {
            let bytes = try InputFile.bytes(defines, limit: DefinesFile.maxBytes, what: "a --defines file")
            guard let text = String(validating: bytes, as: UTF8.self) else {
                printError("pinguard: \(defines): not UTF-8 text")
                throw Exit.configuration
            }
            entries = try definesOrExit(DefinesFile.parse(text, file: defines))
        }
        for entry in define {
            if entries.count >= DefinesFile.maxDefinitions {
                printError("pinguard: \(DefinesError.tooMany(origin: "--define"))")
                throw Exit.configuration
            }
            entries.append(try definesOrExit(DefinesFile.entry(entry, origin: "--define")))
        }
        var values: [String: String] = [:]
        for e in entries { values[e.name] = e.value }
        return values
    }

    /// The value, or the error printed and exit 2.
    func definesOrExit<T>(_ result: Result<T, DefinesError>) throws -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error):
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
    }
}
