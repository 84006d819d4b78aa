import ArgumentParser

/// `pinguard serve` (service issue).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the service.")
    func run() async throws { throw CleanExit.message("not built yet") }
}
/// `pinguard lint`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lint", abstract: "Audit policy files.")
}
/// `pinguard import`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import shipped pin configurations.")
}
