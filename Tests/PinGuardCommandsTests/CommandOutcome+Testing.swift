import Foundation
import PinGuardCommands
import PinGuardTestSupport

extension CommandOutcome: CustomStringConvertible {
    /// Status and both streams, for assertion messages.
    public var description: String {
        "status \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderrText)"
    }

    /// Standard error as the executable writes it: each line and its newline.
    var stderrText: String { stderr.map { $0 + "\n" }.joined() }

    /// Standard output read as the JSON value it holds.
    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
}

/// A shared fixture loaded by path: `Tests/Fixtures/KIND/NAME`.
func fixture(_ kind: String, _ name: String) -> String {
    Repository.root.appendingPathComponent("Tests/Fixtures/\(kind)/\(name)").path
}
