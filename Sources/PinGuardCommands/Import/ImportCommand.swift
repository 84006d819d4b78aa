import Foundation
import PinGuardCore
import PinGuardReaders

/// `pinguard import`: turns the pin configuration an app ships into a policy file.
public enum ImportCommand {
    /// What `import` is asked to do.
    public struct Options: Sendable {
        /// The file the app ships.
        public var file: String
        /// Its format; nil: named from the file, as `lint` names it.
        public var format: PolicyImportFormat?
        /// The policy set's name; nil: the file name without extension.
        public var name: String?
        /// The environment the rules go under.
        public var environment = "prod"
        /// Where the policy is written; nil: stdout.
        public var output: String?
        /// `NAME=VALUE` definitions of values the source uses but does not define, in order.
        public var define: [String] = []
        /// A file of `NAME=VALUE` lines, read before `define`.
        public var defines: String?
        /// android-nsc: the API level the app targets.
        public var targetSDK: Int?
        /// android-nsc: the manifest or Gradle file the API levels are read from instead; trustkit and
        /// nspinneddomains: the Xcode project, Podfile, Package.swift or Info.plist the deployment target is read from.
        public var manifest: String?
        /// The Android app's res/ directory, for `@raw/NAME` trust anchors; nil: the res/ the XML is in.
        public var res: String?

        /// Options importing `file`, everything else as the command line's defaults.
        public init(file: String) { self.file = file }
    }

    /// Imports the file: the policy YAML on stdout (or in `output`), findings and the `--define` flags still
    /// needed on stderr; status 0 imported, 1 imported with content refused, 2 nothing importable.
    public static func run(_ options: Options) -> CommandOutcome {
        var run = ImportRun(options: options)
        return run.outcome()
    }
}

/// One `import` run and the output it writes.
struct ImportRun: CommandRun {
    let options: ImportCommand.Options
    var out = CommandOutput()

    init(options: ImportCommand.Options) { self.options = options }

    mutating func perform() throws(CommandStop) -> Int32 {
        let file = options.file
        let values = try readDefines()
        let data = try InputFile.bytes(file, limit: ImportLimits.maxInputBytes, what: "a file the importers read", out: &out)
        let setName = options.name ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let format: PolicyImportFormat
        if let given = options.format { format = given } else { format = try detectedFormat(data) }
        let (targetSDK, minimumVersion) = format.client == .ios ? (nil, try deploymentTarget(imported: data)) : try appSDKs()
        let result: ImportResult
        do {
            result = try PolicyImporter.importPolicy(format: format, contents: data, file: file, name: setName,
                                                     environment: options.environment, defines: values,
                                                     resources: format == .androidNSC
                                                         ? AndroidResources.resolve(xml: data, xmlPath: file, resDir: options.res) : [:],
                                                     targetSDK: targetSDK, minimumVersion: minimumVersion)
        } catch {
            for f in error.findings { out.error(f.description) }
            out.error("pinguard: \(error)")
            if let supply = DefineSuggestion.line(error.undefinedNames) { out.error("pinguard: \(supply)") }
            return CommandStatus.configuration
        }
        for f in result.findings { out.error(f.description) }
        if let supply = DefineSuggestion.line(result.undefinedNames) { out.error("pinguard: \(supply)") }
        if let output = options.output {
            do { try result.yaml.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                throw out.fail("pinguard: \(output): \(error.localizedDescription)")
            }
        } else {
            out.write(result.yaml)
        }
        return result.findings.contains(where: { $0.severity == .error }) ? CommandStatus.rejected : CommandStatus.ok
    }

    /// The format of a file given without `--input-format`, named as `lint` names it; a file that is none of them,
    /// or an Info.plist holding both TrustKit and NSPinnedDomains, is status 2 asking for the flag.
    mutating func detectedFormat(_ bytes: [UInt8]) throws(CommandStop) -> PolicyImportFormat {
        let file = options.file
        let kind = LintInputFormat.detect(file: file, contents: bytes)
        let names = PolicyImportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard kind != .policy else {
            throw out.fail("pinguard: \(EchoedInput.bare(file)): not a format import names by itself; give --input-format (\(names))")
        }
        let formats: [PolicyImportFormat]
        do { formats = try NativePolicyReader.importFormats(bytes, file: file, format: kind) } catch {
            throw out.fail("pinguard: \(error)")
        }
        guard formats.count == 1 else {
            throw out.fail("pinguard: \(EchoedInput.bare(file)) holds both a TrustKit configuration and NSPinnedDomains; give --input-format trustkit or nspinneddomains")
        }
        out.error("pinguard: \(EchoedInput.bare(file)): read as \(formats[0].rawValue)")
        return formats[0]
    }

    /// `--target-sdk`, or the level `--manifest` declares (said on stderr; a manifest that declares none is
    /// status 2), with the lowest level the manifest declares (`minSdk`), which sets `client_versions`.
    mutating func appSDKs() throws(CommandStop) -> (target: Int?, min: Int?) {
        guard let manifest = options.manifest else { return (options.targetSDK, nil) }
        let bytes = try InputFile.bytes(manifest, limit: AndroidTargetSDK.maxBytes, what: "an AndroidManifest.xml or Gradle file", out: &out)
        do {
            let (sdk, line) = try AndroidTargetSDK.read(bytes, file: manifest)
            out.error("pinguard: \(EchoedInput.bare(manifest)):\(line): the app targets API level \(sdk)")
            let minimum = AndroidTargetSDK.readMinimum(bytes)
            if let minimum {
                out.error("pinguard: \(EchoedInput.bare(manifest)):\(minimum.line): the app runs from API level \(minimum.sdk) (client_versions \"\(minimum.sdk)-\")")
            }
            return (sdk, minimum?.sdk)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }

    /// The iOS release the app runs from, which sets `client_versions`: read from `--manifest` (a file that
    /// declares none is status 2), else from the imported file when it is a built Info.plist with
    /// `MinimumOSVersion`; said on stderr. Nil when neither gives one.
    mutating func deploymentTarget(imported: [UInt8]) throws(CommandStop) -> Int? {
        let file: String, bytes: [UInt8]
        if let manifest = options.manifest {
            file = manifest
            bytes = try InputFile.bytes(manifest, limit: AppleDeploymentTarget.maxBytes,
                                        what: "an Xcode project, Podfile, Package.swift or Info.plist", out: &out)
        } else {
            guard AppleDeploymentTarget.isPropertyList(imported) else { return nil }
            (file, bytes) = (options.file, imported)
        }
        do {
            let target = try AppleDeploymentTarget.read(bytes, file: file)
            let at = target.line.map { ":\($0)" } ?? ""
            out.error("pinguard: \(EchoedInput.bare(file))\(at): the app runs from iOS \(target.written) (client_versions \"\(target.major)-\")")
            return target.major
        } catch {
            if options.manifest == nil { return nil }
            throw out.fail("pinguard: \(error)")
        }
    }

    /// `--defines FILE` then `--define` values (a `--define` wins over the file); a malformed entry or more than
    /// `DefinesFile.maxDefinitions` in all is status 2, its echo quoted and escaped.
    mutating func readDefines() throws(CommandStop) -> [String: String] {
        var entries: [(name: String, value: String)] = []
        if let defines = options.defines {
            let bytes = try InputFile.bytes(defines, limit: DefinesFile.maxBytes, what: "a --defines file", out: &out)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw out.fail("pinguard: \(defines): not UTF-8 text") }
            entries = try definesOrStop(DefinesFile.parse(text, file: defines))
        }
        for entry in options.define {
            if entries.count >= DefinesFile.maxDefinitions { throw out.fail("pinguard: \(DefinesError.tooMany(origin: "--define"))") }
            entries.append(try definesOrStop(DefinesFile.entry(entry, origin: "--define")))
        }
        var values: [String: String] = [:]
        for e in entries { values[e.name] = e.value }
        return values
    }

    /// The value, or the error said and status 2.
    mutating func definesOrStop<T>(_ result: Result<T, DefinesError>) throws(CommandStop) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw out.fail("pinguard: \(error)")
        }
    }
}
