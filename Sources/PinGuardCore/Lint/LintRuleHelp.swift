/// What code scanning shows for each rule: a name, a help text, tags and a CVSS-like severity.
extension LintRule {
    /// The rule's name in PascalCase (SARIF `reportingDescriptor.name`).
    public var name: String {
        rawValue.split(separator: "-").map { part in
            ["ats", "ca", "ssl", "tls", "http"].contains(part) ? part.uppercased() : part.prefix(1).uppercased() + part.dropFirst()
        }.joined()
    }

    /// GitHub's `security-severity` (0.0–10.0; from 9.0 critical, 7.0 high, 4.0 medium, below low): how much
    /// interception or breakage the finding exposes an app to.
    public var securitySeverity: String {
        switch self {
        case .androidUserCA, .androidOverridePins, .atsArbitraryLoads, .rawKeyPin, .clientPathRejected: return "8.1"
        case .breaksOnClientUpdate: return "7.4"
        case .servedChainHazard: return "5.9"
        case .noBackupPin, .pinSetExpired, .publicSuffixPattern, .atsInsecureHTTPException, .androidCleartextTraffic:
            return "7.4"
        case .backupSameAsPrimary, .atsTLSMinimumException, .prodSystemTrustFallback, .prodPermissive, .prodNoSystemTrust:
            return "5.9"
        case .retiredIssuer: return "7.4"
        case .issuerPoolCoverage, .ctOff: return "5.9"
        case .caPin, .pinSetExpiring, .nativeConfig, .noPins: return "4.3"
        case .noBackupRole, .duplicatePin, .shadowedPattern, .emptyEnvironment: return "2.0"
        }
    }

    /// Tags for code scanning filters: every rule is `security`; the platform it concerns, when one.
    public var tags: [String] {
        switch self {
        case .atsArbitraryLoads, .atsInsecureHTTPException, .atsTLSMinimumException: return ["security", "pinning", "ios", "ats"]
        case .androidCleartextTraffic, .androidUserCA, .androidOverridePins: return ["security", "pinning", "android"]
        default: return ["security", "pinning"]
        }
    }

    /// How to fix findings of this rule, a paragraph for SARIF `help` (text and Markdown).
    public var help: String {
        switch self {
        case .noBackupPin: return "Pin at least two keys: the key in use and a backup key that is not deployed yet (kept offline or issued by another CA). RFC 7469 §4.3; TrustKit refuses fewer than two pins."
        case .noBackupRole: return "Mark the pin held in reserve with role: backup so reserve-pin reporting can tell it apart."
        case .backupSameAsPrimary: return "Replace the backup pin with the hash of a different key."
        case .duplicatePin: return "Remove the duplicate pin, or pin a different key."
        case .pinSetExpired: return "Ship a later expiration, or remove it; after it clients check system trust only."
        case .pinSetExpiring: return "Ship an app update with renewed pins and a later expiration before the date."
        case .prodPermissive: return "Use fail_strategy: strict in production."
        case .prodSystemTrustFallback: return "Set allow_system_trust_fallback: false in production; with TrustKit set TSKEnforcePinning to true, on Android remove overridePins from system anchors."
        case .prodNoSystemTrust: return "Set require_system_trust: true in production."
        case .caPin: return "Pin your own leaf keys with an offline backup key, or pin CAs of two different operators."
        case .publicSuffixPattern: return "Pin your own registrable domain (**.example.com), not a public suffix: TrustKit refuses includeSubdomains on a suffix, and OkHttp and ATS would pin hosts of unrelated owners."
        case .shadowedPattern: return "If the hosts of the narrower pattern should accept the broader pattern's pins, add them to it."
        case .emptyEnvironment: return "Add policies or a default_policy, or remove the environment."
        case .noPins: return "Add pins, or remove the rule when pinning is not intended."
        case .atsArbitraryLoads: return "Remove NSAllowsArbitraryLoads and list the domains that need an exception under NSExceptionDomains (App Store review asks for a justification)."
        case .atsInsecureHTTPException: return "Serve the domain over HTTPS and remove NSExceptionAllowsInsecureHTTPLoads; a pin protects HTTPS connections only."
        case .atsTLSMinimumException: return "Remove NSExceptionMinimumTLSVersion or set it to TLSv1.2 or later."
        case .androidCleartextTraffic: return "Set cleartextTrafficPermitted=\"false\" (the default from Android 9) and serve the domain over HTTPS."
        case .androidUserCA: return "Move <certificates src=\"user\"/> into <debug-overrides>, which applies to debuggable builds only."
        case .androidOverridePins: return "Remove overridePins=\"true\" outside <debug-overrides>: chains to that anchor are accepted without a pin match."
        case .clientPathRejected: return "The versions named build a path from their own store that no pin covers, or no path at all: pin a key of that path (the anchor's SPKI is in pinguard probe --json, paths), or serve a chain those versions anchor under a pinned key (docs/client-paths.md)."
        case .breaksOnClientUpdate: return "A dated change of the client's store (a root added, removed or distrusted) or versions not yet in use reject this chain: ship pins that cover the new path before the date, or plan a chain the changed store still anchors under a pinned key."
        case .servedChainHazard: return "Send the chain that ends below roots every supported client version holds: drop a self-signed root the store lacks and expired cross-signs, and keep the cross-signs older versions need."
        case .rawKeyPin: return "Replace the pin with the SHA-256 of the certificate's SubjectPublicKeyInfo (pinguard pin CERT prints it); SDKs that hash SecKeyCopyExternalRepresentation output pin the raw key instead."
        case .nativeConfig: return "Fix the configuration as the message says; errors are content the platform rejects or pins that were not read."
        case .issuerPoolCoverage: return "Pin every intermediate of the pool the CA issues from, or a root every one of them chains to, or your own leaf key with a backup key; the renewal forecast (pinguard_renewal_reject_ratio) shows the share of renewals that break."
        case .ctOff: return "Remove certificate_transparency: off: iOS (since 12.1.1) and Chrome reject a publicly trusted certificate without enough SCTs whatever the app says, and an app cannot turn that off; pinguard judges CT as the client does only when the set says which client it is."
        case .retiredIssuer: return "Pin the intermediates the CA issues from now (see the issuer catalog), a root they chain to, or your own leaf key with a backup key."
        }
    }
}
