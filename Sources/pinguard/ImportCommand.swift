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

    @Option(help: "Input format: trustkit, nspinneddomains, android-nsc, okhttp, hpkp.")
    var format: PolicyImportFormat

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

    @Option(help: ArgumentHelp("The Android app's res/ directory, where @raw/NAME trust anchors are looked up (default: the res/ the XML is in).",
                               valueName: "DIR"))
    var res: String?

    func run() throws {
        let values = try readDefines()
        let data = try InputFile.bytes(file, limit: ImportLimits.maxInputBytes, what: "a file the importers read")
        let setName = name ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let result: ImportResult
        do {
            result = try PolicyImporter.importPolicy(format: format, contents: [UInt8](data), file: file, name: setName,
                                                     environment: environment, defines: values,
                                                     resources: format == .androidNSC
                                                         ? AndroidResources.resolve(xml: [UInt8](data), xmlPath: file, resDir: res) : [:])
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
