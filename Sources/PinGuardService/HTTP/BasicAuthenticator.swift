import CCrypt
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PinGuardConfig
import PinGuardCrypto

/// Checks basic-auth credentials against `basic_auth_users` bcrypt hashes with libxcrypt's `crypt_r`.
///
/// As exporter-toolkit: successful checks are remembered (by a SHA-256 of user, password and stored hash),
/// so a scrape every few seconds costs no bcrypt computation, and an unknown user is checked against a
/// dummy hash of the highest cost configured, so the answer takes as long as for a known user. Against
/// floods: bcrypt runs on `threads` threads with at most `maxPending` checks waiting or running (more are
/// answered busy at once), and an address with too many failures is refused without bcrypt for a while.
final class BasicAuthenticator: Sendable {
    /// How a check ended.
    enum Outcome: Sendable, Equatable {
        /// The credentials match.
        case allowed
        /// Unknown user or wrong password.
        case denied
        /// The client address failed too often lately; nothing was checked.
        case tooManyFailures
        /// Too many checks are waiting; nothing was checked.
        case busy
    }

    /// Threads running bcrypt.
    static let threads = 2
    /// Checks waiting or running at once.
    static let maxPending = 32
    /// Successful checks remembered; beyond this the memory is cleared (a changed password list would
    /// otherwise let it grow).
    static let cacheLimit = 1_024

    private struct State {
        var verified: Set<String> = []
        var pending = 0
    }

    private let pool: NIOThreadPool
    private let state = NIOLockedValueBox(State())
    private let failures = FailedLoginLimiter()

    init() {
        pool = NIOThreadPool(numberOfThreads: Self.threads)
        pool.start()
    }

    func shutdown() { pool.shutdownGracefully { _ in } }

    /// Checks `credentials` from `client` against the configuration's `basic_auth_users`.
    func verify(_ credentials: BasicCredentials, config: WebConfig, client: String,
                eventLoop: any EventLoop) -> EventLoopFuture<Outcome> {
        let known = config.basicAuthUsers[credentials.user]
        let stored = known ?? config.unknownUserHash
        let key = Self.cacheKey(credentials, stored)
        if known != nil && state.withLockedValue({ $0.verified.contains(key) }) {
            return eventLoop.makeSucceededFuture(.allowed)
        }
        if failures.isBlocked(client) { return eventLoop.makeSucceededFuture(.tooManyFailures) }
        let admitted = state.withLockedValue { s -> Bool in
            guard s.pending < Self.maxPending else { return false }
            s.pending += 1
            return true
        }
        guard admitted else { return eventLoop.makeSucceededFuture(.busy) }
        let check = pool.runIfActive(eventLoop: eventLoop) { [state] () -> Outcome in
            let computed = Self.crypt(credentials.password, setting: stored)
            let matches = computed.map { Self.constantTimeEqual(Array($0.utf8), Array(stored.utf8)) } ?? false
            guard matches, known != nil else { return .denied }
            state.withLockedValue { s in
                if s.verified.count >= Self.cacheLimit { s.verified.removeAll() }
                s.verified.insert(key)
            }
            return .allowed
        }
        check.whenComplete { [state, failures] result in
            state.withLockedValue { $0.pending -= 1 }
            if case .success(.denied) = result { failures.recordFailure(client) }
        }
        return check
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
        return CertificateReader.sha256Base64(bytes[...])
    }
}
