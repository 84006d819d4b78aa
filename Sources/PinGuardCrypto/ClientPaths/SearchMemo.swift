import COpenSSL
import Foundation
import PinGuardCore

/// What the searches of one served chain share, every client and version range together: each signature check
/// and each check of a complete path is made once (Android's, the JVM's and Chrome's paths through the same
/// certificates are mostly the same path, checked by the same rules). Keyed by the certificates' identity, so it
/// lives no longer than the one judgement of one chain.
final class SearchMemo {
    private struct Signature: Hashable {
        let child: OpaquePointer
        let issuer: OpaquePointer
    }
    private struct Check: Hashable {
        let path: [OpaquePointer]
        let rules: String
        let distrustAfter: Date?
    }
    private struct Verification: Hashable {
        let path: [OpaquePointer]
        let level: Int32
        let anchorDates: Bool
    }
    private var signatures: [Signature: Bool] = [:]
    private var checks: [Check: String?] = [:]
    private var verifications: [Verification: String?] = [:]
    /// Whether the paths start at an issuing certificate authority, above a leaf not issued yet (`PathCheck`).
    let issuerTarget: Bool

    /// A memo for the searches of one chain; `issuerTarget`: one that starts at an issuer (`PathCheck`).
    init(issuerTarget: Bool = false) {
        self.issuerTarget = issuerTarget
    }

    /// Whether `issuer`'s key verifies `child`'s signature.
    func signed(_ child: OpaquePointer, by issuer: OpaquePointer) -> Bool {
        let key = Signature(child: child, issuer: issuer)
        if let known = signatures[key] { return known }
        let ok = PathSearch.signed(child, by: issuer)
        signatures[key] = ok
        return ok
    }

    /// `PathCheck.failure` of `path`, made once per path and set of rules.
    func failure(of path: [OpaquePointer], anchor: ClientStoreData.Root, strategy: PathStrategy, publicRoots: Bool,
                 at time: Date) -> String? {
        let key = Check(path: path, rules: strategy.checkRules(publicRoots: publicRoots), distrustAfter: anchor.distrustAfter)
        if let known = checks[key] { return known }
        // OpenSSL's part depends on the level and on whether the anchor's dates count: Android, the JVM and Chrome
        // share it; the client's own rules are applied apart.
        let verification = Verification(path: path, level: strategy.securityLevel, anchorDates: strategy.checksAnchorDates)
        let openSSL = verifications[verification]
            ?? PathCheck.openSSLFailure(of: path, strategy: strategy, at: time, issuerTarget: issuerTarget)
        verifications[verification] = .some(openSSL)
        let error = PathCheck.failure(of: path, anchor: anchor, strategy: strategy, publicRoots: publicRoots, at: time,
                                      openSSL: .some(openSSL), issuerTarget: issuerTarget)
        checks[key] = .some(error)
        return error
    }
}

extension PathStrategy {
    /// The rules `PathCheck` applies for this client: two strategies with the same rules check a path alike.
    func checkRules(publicRoots: Bool) -> String {
        switch self {
        case .apple: publicRoots ? "apple-public" : "apple"
        case .chrome: publicRoots ? "chrome-public" : "pkix"
        case .conscrypt, .okhttp: "pkix"
        }
    }
}
