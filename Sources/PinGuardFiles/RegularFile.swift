#if canImport(Glibc)
import Glibc
#endif

/// Reads the files pinguard is given (configuration, policies, target files, `files:`, identities, keys,
/// bundles, CA files, `--defines`, lint and import inputs) without ever blocking on one.
///
/// Each file is opened non-blocking and checked with `fstat` on the descriptor that is then read, so a
/// FIFO, a socket or a device is refused at once with an error that names it, and no read can hold a
/// round, a reload or a signal. At most `maxBytes` bytes are read.
public enum RegularFile {
    /// The bytes of the regular file at `path`; a file of more than `maxBytes` bytes is refused.
    public static func read(_ path: String, maxBytes: Int) throws(RegularFileError) -> [UInt8] {
        try read(path, maxBytes: maxBytes, cut: false)
    }

    /// The first `count` bytes of the regular file at `path` (all of a shorter one).
    public static func head(_ path: String, count: Int) throws(RegularFileError) -> [UInt8] {
        try read(path, maxBytes: count, cut: true)
    }

    private static func read(_ path: String, maxBytes: Int, cut: Bool) throws(RegularFileError) -> [UInt8] {
        let fd = try open(path)
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw RegularFileError(.unreadable, path: path, "cannot read the file (\(String(cString: strerror(errno))))")
            }
            if n == 0 { return out }
            if cut && out.count + n >= maxBytes { return out + chunk[0..<(maxBytes - out.count)] }
            guard out.count + n <= maxBytes else {
                throw RegularFileError(.tooLarge, path: path, "the file is larger than the limit of \(maxBytes) bytes")
            }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// Throws unless `path` names a readable regular file (for files a library opens by name itself).
    public static func check(_ path: String) throws(RegularFileError) {
        close(try open(path))
    }

    /// A read-only descriptor of the regular file at `path`, for a caller that keeps it open (to lock the
    /// file, say) and closes it; opened and checked as `read` opens and checks.
    public static func descriptor(_ path: String) throws(RegularFileError) -> Int32 {
        try open(path)
    }

    /// A descriptor of the regular file at `path`, opened non-blocking so that a FIFO cannot hold the open
    /// (O_NONBLOCK changes nothing for reads of a regular file).
    private static func open(_ path: String) throws(RegularFileError) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw RegularFileError(.missing, path: path, "no such file") }
            throw RegularFileError(.unreadable, path: path, "cannot open the file (\(String(cString: strerror(code))))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw RegularFileError(.unreadable, path: path, "cannot stat the file")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw RegularFileError(.notRegular, path: path, "not a regular file (\(describe(kind)))")
        }
        return fd
    }

    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a directory"
        default: return "a special file"
        }
    }
}

/// Why a file could not be read, with a code to tell the cases apart and a one-line message.
public struct RegularFileError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// No file at the path.
        case missing
        /// A FIFO, socket, device or directory.
        case notRegular
        /// Over the caller's size limit.
        case tooLarge
        /// Permissions or an I/O error.
        case unreadable
    }

    /// What went wrong.
    public let code: Code
    /// The path as given.
    public let path: String
    /// What went wrong, without the path.
    public let reason: String

    init(_ code: Code, path: String, _ reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// `PATH: reason`.
    public var description: String { "\(path): \(reason)" }
}
