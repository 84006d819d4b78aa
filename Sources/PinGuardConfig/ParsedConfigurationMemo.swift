import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto

/// The last configuration text a loader parsed and what it parsed to: a reload whose `pinguard.yml` is the
/// same text (a policy edit, a change of a `target_files` file, a SIGHUP with nothing edited) takes the
/// parsed configuration from here instead of parsing 100,000 targets again, and the targets in force keep
/// their storage instead of being built anew.
///
/// Parsing is a function of the text and the file's path alone, so an equal text gives an equal result.
/// The text is known by its SHA-256, so the memo holds no copy of the file.
public final class ParsedConfigurationMemo: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var last: (path: String, digest: String, config: ServiceConfig)?

    /// Creates an empty memo.
    public init() {}

    /// `ServiceConfigParser.parse(text, file: path)`, or the configuration it gave for the same text and
    /// path last time. A text that does not parse is not remembered (the error is thrown again).
    public func parse(_ text: String, file path: String) throws(ConfigError) -> ServiceConfig {
        let digest = CertificateReader.sha256Base64(ArraySlice(text.utf8))
        let remembered = lock.withLock { last }
        if let remembered, remembered.path == path, remembered.digest == digest { return remembered.config }
        let config = try ServiceConfigParser.parse(text, file: path)
        lock.withLock { last = (path, digest, config) }
        return config
    }
}
