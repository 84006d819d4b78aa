import PinGuardFiles

/// A file named on the command line, read as `RegularFile` reads (regular files only, never a blocking
/// open, at most `limit` bytes); on failure the reason is printed and the command exits 2.
enum InputFile {
    /// Certificate, key and chain files: a chain is a few kilobytes.
    static let certificateLimit = 16 << 20

    /// The file's bytes.
    static func bytes(_ path: String, limit: Int, what: String = "the file") throws -> [UInt8] {
        do throws(RegularFileError) { return try RegularFile.read(path, maxBytes: limit) } catch {
            switch error.code {
            case .tooLarge: printError("pinguard: \(path): \(what) is larger than the limit of \(limit) bytes")
            case .missing, .unreadable: printError("pinguard: \(path): cannot read the file (\(error.reason))")
            case .notRegular: printError("pinguard: \(path): \(error.reason)")
            }
            throw Exit.configuration
        }
    }
}
