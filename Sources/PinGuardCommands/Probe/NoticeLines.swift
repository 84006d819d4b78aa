import Foundation

/// Lines said while a fetch runs, possibly from other threads, kept in order until the command writes them.
final class NoticeLines: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []

    /// Keeps `line`.
    func add(_ line: String) { lock.withLock { kept.append(line) } }

    /// The lines kept so far, in the order they were said.
    var lines: [String] { lock.withLock { kept } }
}
