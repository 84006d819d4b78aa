import ArgumentParser
import PinGuardCommands
import PinGuardReaders

extension PolicyImportFormat: ExpressibleByArgument {}

/// `pinguard import`: the flags of `ImportCommand`.
struct ImportArguments: ParsableCommand {
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

    @Option(help: ArgumentHelp("android-nsc: the app's AndroidManifest.xml or Gradle build file, read for the API level it targets (instead of --target-sdk) and its minSdk (client_versions). trustkit, nspinneddomains: the app's project.pbxproj, .xcconfig, Podfile, Package.swift or built Info.plist, read for its iOS deployment target (client_versions).",
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
        var options = ImportCommand.Options(file: file)
        options.format = format
        options.name = name
        options.environment = environment
        options.output = output
        options.define = define
        options.defines = defines
        options.targetSDK = targetSDK
        options.manifest = manifest
        options.res = res
        try ImportCommand.run(options).emit()
    }
}
