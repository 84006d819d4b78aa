import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PinGuardCore
import PinGuardFiles

extension StateError {
    /// An error for a failed system call: `doing` names the step, `errno` decides the code.
    init(errno number: Int32, path: String, doing: String) {
        let code = Self.code(forErrno: number) ?? .ioError
        self.init(code, path: path, cause: "\(doing): \(String(cString: strerror(number)))")
    }

    /// An error for an SQLite failure. The errno behind it decides first (a write refused by a read-only
    /// file system surfaces as `SQLITE_IOERR_WRITE`, a full disk sometimes as `SQLITE_IOERR`), then
    /// SQLite's own result code.
    init(_ failure: SQLiteFailure, path: String, doing: String) {
        let code = Self.code(forErrno: failure.systemErrno) ?? Self.code(forSQLite: failure.primary)
        var cause = "\(doing): \(failure.text)"
        if failure.systemErrno != 0 { cause += " (\(String(cString: strerror(failure.systemErrno))))" }
        self.init(code, path: path, cause: cause)
    }

    /// An error for a state file `RegularFile` refused: a FIFO, socket, device or directory is not
    /// pinguard's (`.foreign`, left untouched); a missing file is `.notFound`.
    init(_ refused: RegularFileError, path: String) {
        let code: Code = switch refused.code {
        case .missing: .notFound
        case .notRegular: .foreign
        case .tooLarge, .unreadable: .readOnly
        }
        self.init(code, path: path, cause: refused.reason)
    }

    private static func code(forErrno number: Int32) -> Code? {
        switch number {
        case ENOSPC, EDQUOT: .diskFull
        case EROFS, EACCES, EPERM: .readOnly
        case ENOENT, ENOTDIR: .notFound
        default: nil
        }
    }

    private static func code(forSQLite primary: Int32) -> Code {
        switch primary {
        case SQLITE_FULL: .diskFull
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: .readOnly
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_NOTADB: .foreign
        case SQLITE_BUSY, SQLITE_LOCKED: .locked
        default: .ioError
        }
    }
}
