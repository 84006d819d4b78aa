import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the test process writes to standard error while a block runs (file descriptor 2 pointed at a file
/// for its duration), for messages an in-process service says on stderr.
public enum StandardErrorCapture {
    /// The lines written to stderr while `body` ran.
    public static func lines(_ body: () async throws -> Void) async throws -> [String] {
        let dir = try TemporaryDirectory.make("pinguard-stderr")
        let path = dir.appendingPathComponent("stderr.txt").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw HarnessError("cannot open \(path)") }
        let saved = dup(2)
        dup2(fd, 2)
        close(fd)
        do {
            try await body()
        } catch {
            dup2(saved, 2)
            close(saved)
            throw error
        }
        dup2(saved, 2)
        close(saved)
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
