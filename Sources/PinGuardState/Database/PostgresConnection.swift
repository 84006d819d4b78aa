import Foundation
import CLibPQ
import PinGuardCore

/// What PostgreSQL (or libpq, before reaching it) reported when a call failed.
struct PostgresFailure: Error {
    /// The SQLSTATE (`53100` disk full, `40P01` deadlock, ...); empty when the server was not reached.
    let sqlState: String
    /// libpq's or the server's message, on one line.
    let text: String
    /// Whether the connection is gone (the server went away, or was never reached).
    let connectionLost: Bool
}

/// One PostgreSQL connection through libpq, owned here and closed in `deinit`; nothing outside this target
/// sees a C type. Every parameter and result is text; bytea travels in its hex form (`\x...`).
///
/// Not thread-safe on its own: the store serialises every use behind its lock.
final class PostgresConnection {
    private let handle: OpaquePointer

    /// Connects to `url` (a `postgresql://` URL or a libpq connection string) within `timeout` seconds;
    /// statements are cut after `statementTimeout` seconds. The URL's own settings win over these.
    init(url: String, timeout: Int = 10, statementTimeout: Int = 60) throws(PostgresFailure) {
        let keys = ["connect_timeout", "options", "application_name", "dbname"]
        let values = ["\(timeout)", "-c statement_timeout=\(statementTimeout * 1000)", "pinguard", url]
        let connection = Self.withCStrings(keys) { k in Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        guard let connection else {
            throw PostgresFailure(sqlState: "", text: "libpq could not allocate a connection", connectionLost: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let text = Self.oneLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresFailure(sqlState: "", text: text, connectionLost: true)
        }
        pg_pq_quiet(connection)
        handle = connection
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection still works as far as libpq knows.
    var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs `sql` with `parameters` (`$1`, `$2`, ...; nil is NULL) and returns its rows as text.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresFailure) -> PostgresRows {
        let result = Self.withOptionalCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard let result, status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
            let text = result.map { Self.oneLine(PQresultErrorMessage($0)) } ?? Self.oneLine(PQerrorMessage(handle))
            if let result { PQclear(result) }
            throw PostgresFailure(sqlState: state, text: text.isEmpty ? Self.oneLine(PQerrorMessage(handle)) : text,
                                  connectionLost: !isUsable)
        }
        return PostgresRows(result)
    }

    /// Runs `body` inside one transaction, rolled back when it throws.
    func transaction<T>(_ body: () throws(PostgresFailure) -> T) throws(PostgresFailure) -> T {
        try query("BEGIN")
        do {
            let value = try body()
            try query("COMMIT")
            return value
        } catch {
            if isUsable { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    private static func oneLine(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        withOptionalCStrings(strings.map { Optional($0) }) { pointers in
            var terminated = Array(UnsafeBufferPointer(start: pointers, count: strings.count)) + [nil]
            return terminated.withUnsafeMutableBufferPointer { body(UnsafePointer($0.baseAddress!)) }
        }
    }

    private static func withOptionalCStrings<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let copies = strings.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

/// The rows of one result, as text; freed in `deinit`.
final class PostgresRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    /// How many rows.
    var count: Int { Int(PQntuples(result)) }

    /// How many bytes the value in `row`, `column` has as text.
    func byteCount(_ row: Int, _ column: Int) -> Int {
        Int(PQgetlength(result, Int32(row), Int32(column)))
    }

    /// The value in `row`, `column` as text; nil for NULL.
    func text(_ row: Int, _ column: Int) -> String? {
        guard PQgetisnull(result, Int32(row), Int32(column)) == 0, let value = PQgetvalue(result, Int32(row), Int32(column)) else {
            return nil
        }
        return String(cString: value)
    }
}
