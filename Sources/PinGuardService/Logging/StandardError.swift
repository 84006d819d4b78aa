import Foundation
import NIOConcurrencyHelpers
import PinGuardCore

/// Line-oriented writes to standard error: one call, one line. Text from servers and files reaches these lines
/// (an event's message, a refused URL), so every control character, line separator and direction override is
/// written as an escape (`EchoedInput`): no input can end a line early and forge the next one.
///
/// `--log.level` drops lines below a level; `--log.format` writes them as pinguard's own lines
/// (`pinguard: ...`, the default), logfmt or JSON, as Prometheus' exporters do.
enum StandardError {
    /// The longest line written; the rest is cut with an ellipsis.
    static let maxLine = 16 * 1024

    private static let settings = NIOLockedValueBox(LogSettings())

    /// Sets the level and format of every line from now on (`serve`'s `--log.level` and `--log.format`).
    static func configure(_ s: LogSettings) { settings.withLockedValue { $0 = s } }

    /// Writes `line` (pinguard's own words, `pinguard: ` first) at `level`, unless the level is filtered out.
    static func write(_ line: String, level: LogLevel = .info) {
        let s = settings.withLockedValue { $0 }
        guard level >= s.level else { return }
        let text = EchoedInput.bare(line, limit: maxLine)
        FileHandle.standardError.write(Data((s.format.line(text, level: level, at: Date()) + "\n").utf8))
    }
}

/// How important a line is, least first; `--log.level` keeps it and what is above.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    /// Detail for a developer.
    case debug
    /// What the service does (serving, a list put in force, an event echoed).
    case info
    /// Something works less well than configured (a stale list, a refused download, a change that waits).
    case warn
    /// Something failed (a reload rejected, the service stopped).
    case error

    /// The level of a journal event's syslog priority: 0-3 error, 4 warn, 5-6 info, 7 debug.
    public init(priority: Int) {
        switch priority {
        case ...3: self = .error
        case 4: self = .warn
        case 5...6: self = .info
        default: self = .debug
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}

/// How a line is written: `--log.format`.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `pinguard: message` (the default; what the journal's stderr capture and the docs show).
    case plain
    /// `ts=... level=... msg="..."`, as Prometheus' exporters write.
    case logfmt
    /// One JSON object per line: `{"ts":...,"level":...,"msg":...}`.
    case json

    /// `text` (one escaped line, `pinguard: ` first) at `level` in this format.
    func line(_ text: String, level: LogLevel, at date: Date) -> String {
        let message = text.hasPrefix("pinguard: ") ? String(text.dropFirst("pinguard: ".count)) : text
        switch self {
        case .plain: return text
        case .logfmt:
            return "ts=\(RFC3339.format(date)) level=\(level.rawValue) caller=pinguard msg=\(Self.quoted(message))"
        case .json:
            return "{\"ts\":\(Self.quoted(RFC3339.format(date))),\"level\":\"\(level.rawValue)\",\"caller\":\"pinguard\",\"msg\":\(Self.quoted(message))}"
        }
    }

    /// `text` in double quotes with `"` and `\` escaped (the line holds no control character any more).
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// `--log.level` and `--log.format`.
public struct LogSettings: Sendable, Equatable {
    /// Lines below this level are dropped.
    public var level: LogLevel = .info
    /// How lines are written.
    public var format: LogFormat = .plain

    /// Every line, as pinguard's own.
    public init() {}

    /// The given level and format.
    public init(level: LogLevel, format: LogFormat) {
        self.level = level
        self.format = format
    }
}
