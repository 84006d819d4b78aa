import ArgumentParser
import PinGuardReaders

/// `--policy FILE` (repeatable) and `--input-format`, as `probe` and `plan` take them: a pinguard policy or any
/// pin configuration `import` reads, imported on the fly with its findings printed.
struct PolicyFileOptions: ParsableArguments {
    @Option(name: .customLong("policy"),
            help: "Policy file (repeatable): a pinguard policy or a configuration an app ships (Info.plist, network_security_config.xml, OkHttp or TrustKit source, HPKP headers).")
    var policies: [String] = []

    @Option(name: .customLong("input-format"),
            help: "What every --policy file is: policy, plist, trustkit, android-nsc, okhttp, hpkp (default: detected per file).")
    var inputFormat: LintInputFormat?
}
