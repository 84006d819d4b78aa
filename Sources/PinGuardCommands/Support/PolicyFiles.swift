import PinGuardConfig
import PinGuardCore
import PinGuardReaders

/// The `--policy` files of `probe` and `plan`: pinguard policies or any pin configuration `import` reads, imported
/// on the fly with the importers' findings said on stderr.
enum PolicyFiles {
    /// The policy sets of `files`, each read as `format` (nil: detected per file); a file that does not read
    /// stops the command with status 2, naming it.
    static func load(_ files: [String], format: LintInputFormat?, out: inout CommandOutput) throws(CommandStop) -> [PolicySet] {
        do {
            let loaded = try PolicyFilesLoader.load(files, format: format) {
                AndroidResources.resolve(xml: $0, xmlPath: $1, resDir: nil)
            }
            for f in loaded.findings { out.error(f.description) }
            return loaded.sets
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }
}
