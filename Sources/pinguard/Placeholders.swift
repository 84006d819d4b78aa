import ArgumentParser

/// `pinguard lint`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lint", abstract: "Audit policy files.")
}
/// `pinguard import`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import shipped pin configurations.")
}
