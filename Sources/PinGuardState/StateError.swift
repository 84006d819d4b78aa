import PinGuardCore

/// Why the state file could not be opened or written; tell errors apart by `code`, never by text.
public struct StateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Hashable, Sendable {
        /// The file is pinguard's but damaged (failed integrity check, truncated, malformed). Left untouched.
        case corrupt
        /// The file is not pinguard's: not SQLite, or another application's database. Left untouched.
        case foreign
        /// The file was written by a newer pinguard (higher schema version). Left untouched.
        case newerSchema
        /// A read-only opener found a schema older than this pinguard's, which only a writer can migrate.
        case olderSchema
        /// Another pinguard holds the file for writing, or SQLite reported it busy.
        case locked
        /// The file, its directory or the store (opened read-only) cannot be written.
        case readOnly
        /// The disk (or quota) is full.
        case diskFull
        /// The file does not exist (read-only open) or its directory does not.
        case notFound
        /// The store was closed.
        case closed
        /// Any other I/O or SQLite failure.
        case ioError
    }

    /// The kind of failure.
    public let code: Code
    /// The state file concerned.
    public let path: String
    /// One line: the file, quoted, and the cause.
    public let message: String

    /// Creates an error for `path` with `cause` (a short phrase, without the file name; line breaks in it,
    /// as in SQLite's integrity report, become "; ").
    public init(_ code: Code, path: String, cause: String) {
        self.init(code, path: path, cause: cause, store: "state file")
    }

    /// An error of the store `store` names ("state file", "state database") at `path`.
    init(_ code: Code, path: String, cause: String, store: String) {
        self.code = code
        self.path = path
        let line = cause.split(whereSeparator: \.isNewline).joined(separator: "; ")
        self.message = "\(store) \(Self.quoted(path)): \(line)"
    }

    /// The one-line message.
    public var description: String { message }

    /// The path in quotes, control characters escaped, cut to 200 characters.
    static func quoted(_ path: String) -> String {
        let cut = path.count > 200 ? String(path.prefix(200)) + "..." : path
        return "\"" + cut.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\""
            ? $0.escaped(asASCII: true) : String($0) }.joined() + "\""
    }
}
