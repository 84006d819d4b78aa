/// The checks `pinguard lint` runs; raw values are the stable rule ids printed in reports.
public enum LintRule: String, Sendable, CaseIterable, Codable {
    /// Fewer than two distinct pins (per match group): one key change bricks every client.
    case noBackupPin = "no-backup-pin"
    /// Two or more pins but none marked `role: backup`.
    case noBackupRole = "no-backup-role"
    /// A backup pin hashes the same key as a primary pin, so it is no reserve.
    case backupSameAsPrimary = "backup-same-as-primary"
    /// The same key is pinned more than once in one policy.
    case duplicatePin = "duplicate-pin"
    /// The pin-set expiration is in the past: clients no longer enforce the pins.
    case pinSetExpired = "pin-set-expired"
    /// The pin-set expires within the warning window.
    case pinSetExpiring = "pin-set-expiring"
    /// `fail_strategy: permissive` in a production environment.
    case prodPermissive = "prod-permissive"
    /// `allow_system_trust_fallback: true` in a production environment.
    case prodSystemTrustFallback = "prod-system-trust-fallback"
    /// `require_system_trust: false` in a production environment.
    case prodNoSystemTrust = "prod-no-system-trust"
    /// A `ca` pin or a pin scoped to the root or intermediates.
    case caPin = "ca-pin"
    /// A wildcard pattern on a public suffix (`**.com`, `*.co.uk`, `**.github.io`).
    case publicSuffixPattern = "public-suffix-pattern"
    /// A narrower pattern takes hosts from a broader one that has other pins.
    case shadowedPattern = "shadowed-pattern"
    /// An environment with no policies and no default policy.
    case emptyEnvironment = "empty-environment"
    /// A policy with no pins.
    case noPins = "no-pins"
    /// Info.plist `NSAllowsArbitraryLoads`: App Transport Security is off for every domain not listed.
    case atsArbitraryLoads = "ats-arbitrary-loads"
    /// An ATS exception domain with `NSExceptionAllowsInsecureHTTPLoads`: plain HTTP to that domain.
    case atsInsecureHTTPException = "ats-insecure-http-exception"
    /// An ATS exception domain with `NSExceptionMinimumTLSVersion` below TLS 1.2.
    case atsTLSMinimumException = "ats-tls-minimum-exception"
    /// Android `cleartextTrafficPermitted="true"`: plain HTTP allowed.
    case androidCleartextTraffic = "android-cleartext-traffic"
    /// Android `<certificates src="user"/>` outside `<debug-overrides>`: release builds trust user-installed CAs.
    case androidUserCA = "android-user-ca"
    /// Android `overridePins="true"`: chains to that anchor skip the pin check.
    case androidOverridePins = "android-override-pins"
    /// A pin that is the SHA-256 of a certificate's raw public key bytes, not of its SubjectPublicKeyInfo.
    case rawKeyPin = "raw-key-pin"
    /// Something the importer of a native file noticed: content the platform rejects, pins it could not read.
    case nativeConfig = "native-config"
    /// A pin on one intermediate of a CA's pool that neither covers the pool nor a root every member chains to.
    case issuerPoolCoverage = "issuer-pool-coverage"
    /// A pin on an intermediate its CA no longer issues from.
    case retiredIssuer = "retired-issuer"
    /// `certificate_transparency: off` for a client that enforces CT and cannot be told not to (iOS, Chrome).
    case ctOff = "ct-off"
    /// With `--chain`: some versions of the set's client reject the chain on the path they build.
    case clientPathRejected = "client-path-rejected"
    /// With `--chain`: a dated change of the client's store, or versions not yet in use, reject the chain.
    case breaksOnClientUpdate = "breaks-on-client-update"
    /// With `--chain`: the chain ends at a self-signed root a client's store lacks, or sends an expired CA certificate.
    case servedChainHazard = "served-chain-hazard"

    /// One line describing the rule, for SARIF rule metadata and documentation.
    public var summary: String {
        switch self {
        case .noBackupPin: return "Fewer than two distinct pins: the first key or CA change breaks every client."
        case .noBackupRole: return "No pin is marked role: backup, so reserve-pin reporting cannot tell the reserve apart."
        case .backupSameAsPrimary: return "A backup pin hashes the same key as a primary pin and is no reserve."
        case .duplicatePin: return "The same key is pinned more than once in one policy."
        case .pinSetExpired: return "The pin-set has expired: clients no longer enforce these pins."
        case .pinSetExpiring: return "The pin-set expires soon: clients will stop enforcing these pins."
        case .prodPermissive: return "A production policy accepts chains that fail pinning or system trust."
        case .prodSystemTrustFallback: return "A production policy accepts any system-trusted chain when no pin matches."
        case .prodNoSystemTrust: return "A production policy does not require system trust."
        case .caPin: return "Pinning a CA key trusts everything that CA issues and breaks when the CA changes its chain."
        case .publicSuffixPattern: return "A wildcard pattern on a public suffix pins hosts of unrelated owners."
        case .shadowedPattern: return "Hosts of a narrower pattern do not get the pins of the broader pattern around it."
        case .emptyEnvironment: return "An environment with no policies and no default policy covers no host."
        case .noPins: return "A policy with no pins does not pin."
        case .atsArbitraryLoads: return "NSAllowsArbitraryLoads turns App Transport Security off for every domain not listed."
        case .atsInsecureHTTPException: return "An ATS exception domain allows plain HTTP, which no pin protects."
        case .atsTLSMinimumException: return "An ATS exception domain accepts TLS below 1.2."
        case .androidCleartextTraffic: return "cleartextTrafficPermitted allows plain HTTP, which no pin protects."
        case .androidUserCA: return "Release builds trust user-installed CAs, so a CA the user or an MDM profile adds can intercept traffic."
        case .androidOverridePins: return "overridePins lets chains to that trust anchor skip the pin check."
        case .rawKeyPin: return "A pin hashes the raw public key bytes, not the SubjectPublicKeyInfo, so SPKI-based clients never match it."
        case .nativeConfig: return "The native pin configuration has content its platform rejects, or pins pinguard could not read."
        case .issuerPoolCoverage: return "A pin on one intermediate of a CA that picks each certificate's intermediate from a pool: renewals from the others break it."
        case .retiredIssuer: return "A pin on an intermediate its CA no longer issues from: the next renewal comes from another one."
        case .ctOff: return "CT is off for a client that enforces it on every publicly trusted chain, so pinguard accepts chains the client rejects."
        case .clientPathRejected: return "Some versions of the set's client reject the chain on the path they build from their own store."
        case .breaksOnClientUpdate: return "A known change of the client's store, or versions not yet in use, reject the chain the set accepts today."
        case .servedChainHazard: return "The chain ends at a self-signed root a client's store lacks, or sends an expired CA certificate."
        }
    }

    /// The severity findings of this rule usually have (some findings are lowered, e.g. a deliberate exclusion).
    public var defaultSeverity: FindingSeverity {
        switch self {
        case .noBackupPin, .backupSameAsPrimary, .pinSetExpired, .publicSuffixPattern, .atsArbitraryLoads, .androidUserCA,
             .rawKeyPin, .retiredIssuer, .clientPathRejected:
            return .error
        case .shadowedPattern: return .info
        default: return .warning
        }
    }
}

/// One lint finding: which rule, where (set, environment, pattern, file and line), what and how to fix it.
public struct LintFinding: Sendable, Equatable {
    /// The rule that fired.
    public var rule: LintRule
    /// How serious it is.
    public var severity: FindingSeverity
    /// Policy set name.
    public var policySet: String
    /// Environment name; nil for findings about the whole set.
    public var environment: String?
    /// Pattern of the rule (`default` for the default policy); nil for environment-level findings.
    public var pattern: String?
    /// File the set was loaded from.
    public var file: String?
    /// 1-based line of the pin, rule or environment concerned.
    public var line: Int?
    /// What is wrong and why it matters.
    public var message: String
    /// How to fix it.
    public var hint: String

    /// The rule's stable id, e.g. `no-backup-pin`.
    public var ruleID: String { rule.rawValue }

    /// Creates a finding.
    public init(rule: LintRule, severity: FindingSeverity, policySet: String, environment: String?, pattern: String?,
                file: String?, line: Int?, message: String, hint: String) {
        self.rule = rule
        self.severity = severity
        self.policySet = policySet
        self.environment = environment
        self.pattern = pattern
        self.file = file
        self.line = line
        self.message = message
        self.hint = hint
    }
}
