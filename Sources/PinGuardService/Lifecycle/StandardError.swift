import Foundation
import PinGuardCore

/// Line-oriented writes to standard error: one call, one line. Text from servers and files reaches these lines
/// (an event's message, a refused URL), so every control character, line separator and direction override is
/// written as an escape (`EchoedInput`): no input can end a line early and forge the next one.
enum StandardError {
    /// The longest line written; the rest is cut with an ellipsis.
    static let maxLine = 16 * 1024

    static func write(_ line: String) {
        FileHandle.standardError.write(Data((EchoedInput.bare(line, limit: maxLine) + "\n").utf8))
    }
}
