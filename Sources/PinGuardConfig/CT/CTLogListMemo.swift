import Foundation
import PinGuardCore
import PinGuardReaders

/// The last list read from each file, with the bytes it was read from: a reload reads the files again and
/// parses one only when its bytes changed (the bundled lists never do while pinguard runs; reading them took a
/// few percent of a reload at 10,000 targets). Keyed by the list and where it was read from; the bytes are
/// compared whole, so a file changed in place is parsed again whatever its size and time.
final class CTLogListMemo: @unchecked Sendable {
    static let shared = CTLogListMemo()

    private let lock = NSLock()
    private var held: [String: (bytes: [UInt8], list: CTLogList)] = [:]
    private var counts: [String: Int] = [:]

    /// How many times list `name` was parsed from `file` (not taken from memory) since the process started.
    func parses(_ name: CTLogListName, file: String) -> Int { lock.withLock { counts[Self.key(name, file)] ?? 0 } }

    static func key(_ name: CTLogListName, _ file: String) -> String { "\(name.rawValue)\u{0}\(file)" }

    /// The list `name` in `bytes`, read from `origin` (`file` names the file for the memory): the one held when
    /// the bytes are the same, else parsed and held.
    func list(_ bytes: [UInt8], name: CTLogListName, file: String, origin: String) throws(ConfigError) -> CTLogList {
        let key = Self.key(name, file)
        if let entry = lock.withLock({ held[key] }), entry.bytes == bytes { return entry.list }
        let list = try CTLogListReader.parse(bytes, name: name, origin: origin)
        lock.withLock {
            held[key] = (bytes, list)
            counts[key, default: 0] += 1
        }
        return list
    }
}
