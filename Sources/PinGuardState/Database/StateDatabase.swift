import Foundation
import PinGuardCore

/// The state store's link to a shared PostgreSQL database (`state: {url: postgresql://...}`): the schema check
/// at open, each commit's write, fetched documents. Several pinguard instances (shards, replicas, vantage
/// points) share one database; the SQLite file is the embedded alternative (`StateStore`).
///
/// A lost connection is made again at the next use; what could not be written stays in memory for the next
/// commit. Not thread-safe on its own: the store calls it under its lock.
final class StateDatabase {
    /// The URL as given, with its password, for connecting.
    private let url: String
    /// The URL without password, for messages.
    let display: String
    private var connection: PostgresConnection?

    private init(url: String, connection: PostgresConnection) {
        self.url = url
        self.display = DatabaseURL.redacted(url)
        self.connection = connection
    }

    /// Connects to `url`, checks (and for a writer, migrates) the schema, and loads the targets `keep` accepts.
    static func open(url: String, readOnly: Bool, lastSeenGranularity: Int64,
                     keep: (String) -> Bool) throws(StateError) -> (StateDatabase, StateMemory) {
        let display = DatabaseURL.redacted(url)
        do {
            let connection = try PostgresConnection(url: url)
            let version = try DatabaseSchema.prepare(connection, readOnly: readOnly)
            guard version <= DatabaseSchema.currentVersion else {
                throw StateError(.newerSchema, database: display, cause: "schema version \(version) is newer than this pinguard's "
                                 + "\(DatabaseSchema.currentVersion)")
            }
            guard !readOnly || version == 0 || version == DatabaseSchema.currentVersion else {
                throw StateError(.olderSchema, database: display, cause: "schema version \(version) is older than "
                                 + "\(DatabaseSchema.currentVersion); start pinguard serve on it once to migrate it")
            }
            var memory = StateMemory(lastSeenGranularity: lastSeenGranularity)
            if version > 0 || !readOnly { try DatabaseLoader.load(connection, into: &memory, keep: keep) }
            return (StateDatabase(url: url, connection: connection), memory)
        } catch let error as StateError {
            throw error
        } catch let error as PostgresFailure {
            throw StateError(error, database: display, doing: "opening")
        } catch {
            throw StateError(.ioError, database: display, cause: "\(error)")
        }
    }

    /// Writes `memory`'s pending changes.
    func write(_ memory: StateMemory) throws(StateError) {
        try run("writing") { (c) throws(PostgresFailure) in try DatabaseWriter(connection: c).write(memory) }
    }

    /// Adds to `memory` what the database holds of `names` that it does not hold yet.
    func adopt(_ names: Set<String>, into memory: inout StateMemory) throws(StateError) {
        var adopted = memory
        try run("loading") { (c) throws(PostgresFailure) in try DatabaseLoader.load(c, into: &adopted, keep: { names.contains($0) }) }
        memory = adopted
    }

    /// Checks that the database answers (connecting again if the connection was lost).
    func ping() throws(StateError) {
        try run("checking") { (c) throws(PostgresFailure) in try c.query("SELECT 1") }
    }

    /// Runs `body` on the connection, once more at once on a new connection when the one held was lost (the
    /// server restarted or failed over since the last round), or on the same one after a deadlock or
    /// serialization failure; what still fails is `doing` that failed.
    private func run(_ doing: String, _ body: (PostgresConnection) throws(PostgresFailure) -> Void) throws(StateError) {
        let held = connection != nil
        do {
            do {
                try body(try usable())
            } catch where (error.connectionLost && held) || error.sqlState == "40P01" || error.sqlState == "40001" {
                if error.connectionLost { connection = nil }
                try body(try usable())
            }
        } catch {
            if error.connectionLost { connection = nil }
            throw StateError(error, database: display, doing: doing)
        }
    }

    /// The connection, made again if it was lost.
    func usable() throws(PostgresFailure) -> PostgresConnection {
        if let connection, connection.isUsable { return connection }
        connection = nil
        let made = try PostgresConnection(url: url)
        connection = made
        return made
    }

    /// Drops the connection.
    func close() {
        connection = nil
    }
}

extension StateError {
    /// An error of the shared database `display` (its URL without password).
    init(_ code: Code, database display: String, cause: String) {
        self.init(code, path: display, cause: cause, store: "state database")
    }

    /// PostgreSQL's `failure` while `doing` something with the database `display`, mapped to a code.
    init(_ failure: PostgresFailure, database display: String, doing: String) {
        let code: Code
        switch failure.sqlState {
        case _ where failure.connectionLost: code = .ioError
        case "53100": code = .diskFull
        case "25006", "42501": code = .readOnly
        case "XX001": code = .corrupt
        default: code = .ioError
        }
        let reach = failure.connectionLost ? "cannot reach PostgreSQL while \(doing)" : "\(doing) failed"
        let state = failure.sqlState.isEmpty || failure.sqlState == "XX001" ? "" : " (SQLSTATE \(failure.sqlState))"
        self.init(code, database: display, cause: "\(reach): \(failure.text)\(state)")
    }
}
