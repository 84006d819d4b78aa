import Foundation
import PinGuardCore

/// Verdicts OpenSSL already reached on SCT signatures, so that a chain served unchanged is verified once.
///
/// A verdict depends on the SCT's bytes, where it was found (which decides the signed entry: precertificate
/// or certificate), the certificate it covers and, for an embedded SCT, the issuer's key. The validation
/// time matters only through OpenSSL's "timestamp in the future" check, so verdicts are stored and
/// reused only for SCTs dated at or before the validation time: for those the time cannot change the
/// outcome. Bounded: when full it starts over.
final class SCTVerdictCache: @unchecked Sendable {
    /// What identifies one verification.
    struct Key: Hashable {
        var leaf: [UInt8]
        var issuer: [UInt8]
        var source: SCTSource
        var sct: [UInt8]
    }

    private let lock = NSLock()
    private var verdicts: [Key: SCTStatus] = [:]
    private let capacity: Int

    init(capacity: Int = 20_000) { self.capacity = capacity }

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
        if verdicts.count >= capacity { verdicts.removeAll(keepingCapacity: true) }
        verdicts[key] = status
    }

    /// How many verdicts are remembered.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return verdicts.count
    }
}
