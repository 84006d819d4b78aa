import COpenSSL
import Foundation
import PinGuardCore

/// Verdicts OpenSSL already reached on SCT signatures, so that a chain served unchanged is verified once.
///
/// A verdict depends on the SCT's bytes, where it was found (which decides the signed entry: precertificate
/// or certificate), the certificate it covers and, for an embedded SCT, the issuer's key. The validation
/// time matters only through OpenSSL's "timestamp in the future" check, so verdicts are stored and
/// reused only for SCTs dated at or before the validation time: for those the time cannot change the
/// outcome. An entry is the SHA-256 of all that and a verdict, a fixed `entryBytes` however large the SCT;
/// bounded by `budget` (20,000 entries, 2 MiB): when full it starts over.
final class SCTVerdictCache: @unchecked Sendable {
    /// What identifies one verification: SHA-256 over the leaf's and the issuer's SHA-256, the source and
    /// the SCT's bytes.
    struct Key: Hashable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(leaf: [UInt8], issuer: [UInt8], source: SCTSource, sct: [UInt8]) {
            var input = leaf + issuer + Array(source.rawValue.utf8) + [0]
            input += sct
            var digest = [UInt8](repeating: 0, count: 32)
            input.withUnsafeBufferPointer { _ = SHA256($0.baseAddress, $0.count, &digest) }
            (a, b, c, d) = digest.withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
        }
    }

    /// What one verdict costs: the 32-byte key, the verdict, and the hash table's slot and spare room.
    static let entryBytes = 96

    private let lock = NSLock()
    private var verdicts: [Key: SCTStatus] = [:]
    private var budget: CacheBudget

    init(maxEntries: Int = 20_000, maxBytes: Int = 2 << 20) {
        budget = CacheBudget(maxEntries: maxEntries, maxBytes: maxBytes)
    }

    /// The remembered verdict for `key`.
    func verdict(_ key: Key) -> SCTStatus? {
        lock.lock()
        defer { lock.unlock() }
        return verdicts[key]
    }

    /// Remembers a signature verdict; `unknownLog` is not worth remembering (no signature was checked).
    func remember(_ status: SCTStatus, for key: Key) {
        guard status != .unknownLog else { return }
        lock.lock()
        defer { lock.unlock() }
        guard verdicts[key] == nil else { return }
        if !budget.admit(cost: Self.entryBytes) {
            verdicts.removeAll(keepingCapacity: true)
            budget.reset()
            _ = budget.admit(cost: Self.entryBytes)
        }
        verdicts[key] = status
    }

    /// How many verdicts are remembered, and the bytes they are counted at.
    var usage: (entries: Int, bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (verdicts.count, budget.bytes)
    }
}
