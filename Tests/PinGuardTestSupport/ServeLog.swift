import Foundation

/// Lines of what `pinguard serve` writes to stderr: the events it echoes with `--log-events`, and the
/// banner of the demo (started without `--config`).
public enum ServeLog {
    /// The `[EVENT]` lines of `log` (for example `policy_lint_finding`), in order.
    public static func eventLines(_ event: String, in log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains("[\(event)]") }.map(String.init)
    }

    /// The folder of `config and policies: FOLDER  (...)` in the demo's banner; nil without a banner.
    public static func demoFolder(in log: String) -> String? {
        guard let r = log.range(of: "config and policies: ") else { return nil }
        let folder = log[r.upperBound...].prefix { $0 != " " && $0 != "\n" }
        return folder.isEmpty ? nil : String(folder)
    }
}
