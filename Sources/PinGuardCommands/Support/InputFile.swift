import PinGuardFiles

/// A file named on the command line, read as `RegularFile` reads (regular files only, never a blocking
/// open, at most `limit` bytes); on failure the reason is said and the command stops with status 2.
enum InputFile {
    /// Certificate, key and chain files: a chain is a few kilobytes.
    static let certificateLimit = 16 << 20

    /// The file's bytes.
    static func bytes(_ path: String, limit: Int, what: String = "the file", out: inout CommandOutput) throws(CommandStop) -> [UInt8] {
        do throws(RegularFileError) { return try RegularFile.read(path, maxBytes: limit) } catch {
            switch error.code {
            case .tooLarge: throw out.fail("pinguard: \(path): \(what) is larger than the limit of \(limit) bytes")
            case .missing, .unreadable: throw out.fail("pinguard: \(path): cannot read the file (\(error.reason))")
            case .notRegular: throw out.fail("pinguard: \(path): \(error.reason)")
            }
        }
    }
}
