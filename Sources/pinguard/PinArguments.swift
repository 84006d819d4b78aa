import ArgumentParser
import PinGuardCommands

/// `pinguard pin`: the flags of `PinCommand`.
struct PinArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Print SPKI and certificate pins of every certificate, ready to paste into a policy.",
        discussion: """
        SPKI pins are the base64 SHA-256 of the DER SubjectPublicKeyInfo, identical to \
        `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
        """)

    @Argument(help: "PEM bundles or DER certificates.")
    var files: [String] = []

    @Option(help: "Fetch the chain from HOST[:PORT] instead of files.")
    var host: String?

    @Option(help: "Address to dial instead of resolving the host (the first that answers is used).")
    var connect: [String] = []

    @Option(name: .customLong("ca-file"), help: "CA bundle, so that the trust anchor is listed too.")
    var caFile: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if files.isEmpty == (host == nil) { throw ValidationError("give certificate files or --host, not both or neither") }
    }

    func run() throws {
        var source = PinCommand.Source.files(files)
        if let host {
            let (name, port) = try splitHostPort(host)
            source = .host(name, port: port, connect: connect)
        }
        var options = PinCommand.Options(source: source)
        options.caFile = caFile
        options.json = json
        try PinCommand.run(options).emit()
    }
}
