import CSQLite
import PinGuardCore

/// The bounds a value read from the state file must keep, checked column by column for one row: the
/// file is input like any other, and a value pinguard would never write (a time before 1970 or after the
/// year 9999, a negative count, a megabyte of text) means the file is damaged or not what it says.
struct StoredBounds {
    /// Unix seconds pinguard writes: from 1970 to the end of the year 9999.
    static let times: ClosedRange<Int64> = 0...253_402_300_799
    /// A certificate's notBefore or notAfter: any time X.509 can state (years 0000 to 9999).
    static let certificateTimes: ClosedRange<Int64> = -62_167_219_200...253_402_300_799
    /// Row ids and counters: non-negative and far from overflowing when counted on.
    static let counts: ClosedRange<Int64> = 0...Int64(Int32.max)
    /// The longest text a column may hold (names, addresses, serials, subjects).
    static let textBytes = 64 << 10

    private let statement: SQLiteStatement
    private let row: String

    init(_ statement: SQLiteStatement, row: String) {
        self.statement = statement
        self.row = row
    }

    /// Column `index` as Unix seconds within `times`.
    func time(_ index: Int32) throws(SQLiteFailure) -> Int64 {
        try bounded(statement.int64(index), Self.times, index, "a time")
    }

    /// Column `index` as a certificate's date within `certificateTimes`.
    func certificateTime(_ index: Int32) throws(SQLiteFailure) -> Int64 {
        try bounded(statement.int64(index), Self.certificateTimes, index, "a certificate date")
    }

    /// Column `index` as Unix seconds within `times`, or nil when NULL.
    func optionalTime(_ index: Int32) throws(SQLiteFailure) -> Int64? {
        guard let value = statement.optionalInt64(index) else { return nil }
        return try bounded(value, Self.times, index, "a time")
    }

    /// Column `index` as an id or counter within `counts`.
    func count(_ index: Int32) throws(SQLiteFailure) -> Int64 {
        try bounded(statement.int64(index), Self.counts, index, "a count")
    }

    /// Column `index` as text of at most `textBytes` bytes.
    func text(_ index: Int32) throws(SQLiteFailure) -> String {
        let bytes = statement.byteCount(index)
        guard bytes <= Self.textBytes else {
            throw Self.malformed("\(row) holds \(bytes) bytes of text in column \(index) (at most \(Self.textBytes))")
        }
        return statement.text(index)
    }

    private func bounded(_ value: Int64, _ range: ClosedRange<Int64>, _ index: Int32,
                         _ what: String) throws(SQLiteFailure) -> Int64 {
        guard range.contains(value) else {
            throw Self.malformed("\(row) holds \(value) in column \(index), not \(what) pinguard writes "
                                 + "(\(range.lowerBound) to \(range.upperBound))")
        }
        return value
    }

    /// A failure that `StateError` reports as a damaged file (`.corrupt`).
    static func malformed(_ text: String) -> SQLiteFailure {
        SQLiteFailure(code: SQLITE_CORRUPT, systemErrno: 0, text: text)
    }
}
