import CCrypt
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PinGuardProbe

/// Checks basic-auth credentials against `basic_auth_users` bcrypt hashes with libxcrypt's `crypt_r`.
///
/// As exporter-toolkit: an unknown user is checked against a dummy hash too, so that the answer takes as
/// long as for a known one, and successful checks are remembered (by a SHA-256 of user, password and
/// stored hash), so that a scrape every few seconds does not cost a bcrypt computation each time.
final class BasicAuthenticator: Sendable {
    /// bcrypt runs here, not on the event loop: it takes tens of milliseconds on purpose.
    private let pool: NIOThreadPool
    private let verified = NIOLockedValueBox<Set<String>>([])
    /// Successful checks remembered; beyond this the memory is cleared (a changed password list would
    /// otherwise let it grow).
    static let cacheLimit = 1_024
    /// Checked for unknown users, so their answer costs the same bcrypt work as a known user's.
    private let dummyHash: String

    init() {
        pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        dummyHash = Self.crypt(UUID().uuidString, setting: "$2y$10$QOauhQNbBCuQDKes6eFzPe") ?? ""
    }

    func shutdown() { pool.shutdownGracefully { _ in } }

    /// Whether `hash` looks like a bcrypt hash crypt_r can check.
    static func isBcrypt(_ hash: String) -> Bool {
        ["$2a$", "$2b$", "$2y$"].contains(where: hash.hasPrefix) && hash.utf8.count == 60
    }

    /// Succeeds with true when the user is listed and the password matches its hash.
    func verify(_ credentials: BasicCredentials, users: [String: String], eventLoop: any EventLoop) -> EventLoopFuture<Bool> {
        let known = users[credentials.user]
        let stored = known ?? dummyHash
        let key = Self.cacheKey(credentials, stored)
        if known != nil && verified.withLockedValue({ $0.contains(key) }) {
            return eventLoop.makeSucceededFuture(true)
        }
        let dummy = dummyHash
        return pool.runIfActive(eventLoop: eventLoop) { [verified] in
            let computed = Self.crypt(credentials.password, setting: stored)
            let matches = computed.map { Self.constantTimeEqual(Array($0.utf8), Array(stored.utf8)) } ?? false
            guard matches, known != nil, stored != dummy else { return false }
            verified.withLockedValue { set in
                if set.count >= Self.cacheLimit { set.removeAll() }
                set.insert(key)
            }
            return true
        }
    }

    /// `crypt_r(password, setting)`; nil when libxcrypt refuses the setting (it returns a "*" string).
    static func crypt(_ password: String, setting: String) -> String? {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer { data.deallocate() }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        guard let result = crypt_r(password, setting, data) else { return nil }
        let text = String(cString: result)
        return text.hasPrefix("*") ? nil : text
    }

    /// Compares without stopping at the first difference.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// SHA-256 of the three strings, each length-prefixed so that no two triples collide by concatenation.
    static func cacheKey(_ credentials: BasicCredentials, _ stored: String) -> String {
        var bytes: [UInt8] = []
        for s in [credentials.user, credentials.password, stored] {
            let utf8 = Array(s.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).bigEndian) { bytes += $0 }
            bytes += utf8
        }
        return CertificateFacts.sha256Base64(bytes[...])
    }
}
