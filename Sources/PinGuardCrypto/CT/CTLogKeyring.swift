import COpenSSL
import Foundation
import PinGuardCore
#if canImport(Glibc)
import Glibc
#endif

/// The public keys of every loaded CT log, in the form OpenSSL's own SCT verifier reads (a `CTLOG_STORE`),
/// so that the RFC 6962 signed data (precertificate TBS reconstruction, issuer key hash) is OpenSSL's
/// construction, not pinguard's.
///
/// Immutable once built and safe to share between threads; it also remembers verdicts already reached
/// (`SCTVerdictCache`), so a chain served unchanged round after round is verified once.
public final class CTLogKeyring: @unchecked Sendable {
    let store: OpaquePointer
    let verdicts = SCTVerdictCache()
    /// How many distinct logs (by log ID) the keyring holds.
    public let count: Int

    /// Builds the keyring from the logs of every loaded list; a log listed twice (by log ID) is kept once.
    /// Throws naming the first log whose key is not base64 DER SubjectPublicKeyInfo.
    public init(logs: [CTLog]) throws(ProbeError) {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        var seen = Set<String>()
        var keys: [String] = []
        for log in logs where seen.insert(log.logID).inserted {
            keys.append(try CTLogKeyring.checkedKey(log))
        }
        guard let store = CTLOG_STORE_new() else { throw ProbeError.openSSL("CT log store") }
        if !keys.isEmpty {
            do throws(ProbeError) { try CTLogKeyring.load(keys, into: store) } catch {
                CTLOG_STORE_free(store)
                throw error
            }
        }
        self.store = store
        count = keys.count
    }

    deinit { CTLOG_STORE_free(store) }

    /// How many SCT verdicts the keyring remembers (see `SCTVerdictCache`).
    package var rememberedVerdicts: Int { verdicts.usage.entries }

    /// The bytes the remembered verdicts are counted at (at most 2 MiB, see `SCTVerdictCache`).
    package var rememberedVerdictBytes: Int { verdicts.usage.bytes }

    /// The log's key re-encoded as plain base64 after OpenSSL parsed it: a key that does not read is
    /// reported here by name, since OpenSSL's loader only says that some entry of the file is bad.
    private static func checkedKey(_ log: CTLog) throws(ProbeError) -> String {
        let name = "CT log \(log.description.isEmpty ? log.logID : "\(log.description) (\(log.logID))")"
        guard let der = Data(base64Encoded: log.key), !der.isEmpty else {
            throw ProbeError("\(name): key is not base64")
        }
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            var p: UnsafePointer<UInt8>? = raw.bindMemory(to: UInt8.self).baseAddress
            return d2i_PUBKEY(nil, &p, raw.count)
        }
        guard let parsed else { throw ProbeError.openSSL("\(name): key is not a DER SubjectPublicKeyInfo") }
        EVP_PKEY_free(parsed)
        return der.base64EncodedString()
    }

    /// OpenSSL 3.0 has no public call that adds a log to a store, only a loader of its ctlog config
    /// format: the keys go through a private temporary file that exists only while OpenSSL reads it.
    private static func load(_ keys: [String], into store: OpaquePointer) throws(ProbeError) {
        var text = "enabled_logs = " + keys.indices.map { "log\($0)" }.joined(separator: ",") + "\n"
        for (i, key) in keys.enumerated() { text += "[log\(i)]\ndescription = log\(i)\nkey = \(key)\n" }
        let directory = FileManager.default.temporaryDirectory.path
        let path = "\(directory)/pinguard-ctlogs-\(UUID().uuidString)"
        // A fresh name, created exclusively with mode 0600: no one else can put keys into what OpenSSL reads.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ProbeError("CT log store: cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        defer { unlink(path) }
        let complete = writeAll(Array(text.utf8), to: fd)
        close(fd)
        guard complete else { throw ProbeError("CT log store: cannot write \(path): \(String(cString: strerror(errno)))") }
        guard CTLOG_STORE_load_file(store, path) == 1 else { throw ProbeError.openSSL("CT log store: OpenSSL refused the logs") }
    }

    /// Writes every byte, resuming after short writes and interruptions.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
