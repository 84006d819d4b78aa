#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PinGuardCore
import PinGuardFiles

/// The writer's claim on a state file: an exclusive `flock` on the database file itself, held until the
/// store closes. SQLite locks with `fcntl`, which on Linux is independent of `flock`, so the two do not
/// interfere; readers take no lock.
///
/// The descriptor is only ever read (the file's header) and is closed after the store's SQLite connection,
/// because closing any descriptor of a file drops the process's `fcntl` locks on it.
final class StateFileLock {
    /// What the first bytes of the file say it is.
    enum Header {
        /// An empty file: a new store.
        case empty
        /// An SQLite database carrying pinguard's application id.
        case pinguard
    }

    private let descriptor: Int32
    private let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Opens `path` (creating it empty if missing) and takes the exclusive lock, or fails with `.locked`
    /// when another process, or another store in this one, holds it.
    static func acquire(path: String) throws(StateError) -> StateFileLock {
        let descriptor = try openOrCreate(path)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(descriptor)
            if error == EWOULDBLOCK {
                throw StateError(.locked, path: path, cause: "held by another pinguard writer (flock)")
            }
            throw StateError(errno: error, path: path, doing: "locking")
        }
        return StateFileLock(descriptor: descriptor, path: path)
    }

    /// Reads the 100-byte SQLite header and refuses anything that is not empty or pinguard's own database,
    /// before any read-write SQLite connection could touch it.
    func header() throws(StateError) -> Header {
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
        guard count >= 0 else { throw StateError(errno: errno, path: path, doing: "reading the header") }
        if count == 0 { return .empty }
        let magic = Array("SQLite format 3".utf8) + [0]
        guard bytes.starts(with: magic.prefix(count)) else {
            throw StateError(.foreign, path: path, cause: "not an SQLite database")
        }
        guard count == 100 else { throw StateError(.corrupt, path: path, cause: "truncated SQLite header") }
        let applicationID = bytes[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard applicationID == UInt32(bitPattern: StateSchema.applicationID) else {
            throw StateError(.foreign, path: path, cause: "another application's SQLite database "
                             + "(application id \(applicationID), pinguard's is \(StateSchema.applicationID))")
        }
        return .pinguard
    }

    /// A descriptor of the state file, created empty if missing. An existing file is opened non-blocking
    /// and must be a regular file (`RegularFile`'s rule), so a FIFO or a device is refused at once instead
    /// of holding the start; a symbolic link is followed, and what it names is judged by its header.
    private static func openOrCreate(_ path: String) throws(StateError) -> Int32 {
        for _ in 0..<2 {
            do {
                return try RegularFile.descriptor(path)
            } catch where error.code == .missing {
                let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                if created >= 0 { return created }
                guard errno == EEXIST else { break }
            } catch {
                throw StateError(error, path: path)
            }
        }
        throw StateError(errno: errno, path: path, doing: "opening")
    }
}
