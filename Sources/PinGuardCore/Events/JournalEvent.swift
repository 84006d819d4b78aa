/// The journal events of docs/reference.md (Journal events), each with a fixed 128-bit `MESSAGE_ID` and a default priority.
public enum JournalEvent: String, Sendable, CaseIterable {
    case policyMissing = "policy_missing"
    case systemTrustFailed = "system_trust_failed"
    case systemTrustFailedPermissive = "system_trust_failed_permissive"
    case pinMatched = "pin_matched"
    case pinMismatch = "pin_mismatch"
    case pinMismatchAllowedByFallback = "pin_mismatch_allowed_by_fallback"
    case pinMismatchPermissive = "pin_mismatch_permissive"
    case pinSetEmpty = "pin_set_empty"
    case pinSetExpired = "pin_set_expired"
    case probeFailed = "probe_failed"
    case probeRecovered = "probe_recovered"
    case chainChanged = "chain_changed"
    case backupPinInUse = "backup_pin_in_use"
    case reservePinMissing = "reserve_pin_missing"
    case expiryWarning = "expiry_warning"
    case pinBreakageImminent = "pin_breakage_imminent"
    case configLoaded = "config_loaded"
    case configInvalid = "config_invalid"
    case policyLintFinding = "policy_lint_finding"
    case resolutionFailed = "resolution_failed"
    case addressSetChanged = "address_set_changed"
    case addressesOverLimit = "addresses_over_limit"
    case chainDivergence = "chain_divergence"
    case mtlsIdentityUsed = "mtls_identity_used"
    case mtlsIdentityMissing = "mtls_identity_missing"
    case policyBundleRejected = "policy_bundle_rejected"
    case rawKeyPin = "raw_key_pin"
    case certificateRenewed = "certificate_renewed"
    case chainRollback = "chain_rollback"
    case stateNotPersisted = "state_not_persisted"
    case stateUnavailable = "state_unavailable"
    case stateRecovered = "state_recovered"
    case renewalWillBreakPins = "renewal_will_break_pins"
    case ctNotCompliant = "ct_not_compliant"
    case stagedChainRejected = "staged_chain_rejected"
    case stagedChainUnreadable = "staged_chain_unreadable"

    /// Stable `MESSAGE_ID` (32 hex digits); documented in `contrib/journald/pinguard.catalog`.
    public var messageID: String {
        switch self {
        case .policyMissing: return "1817ea43b9a89d23f807bd14c04cd244"
        case .systemTrustFailed: return "38aaaa42ceca35bb75deffa9ebfd9103"
        case .systemTrustFailedPermissive: return "7d2c61ac364e908c6d0acabc4203b4ca"
        case .pinMatched: return "9a38da18878d87fa0b6fc30b299456fa"
        case .pinMismatch: return "9b4595a61c140fbeab9a48be8164eff0"
        case .pinMismatchAllowedByFallback: return "3f194a676735a1c3a9b4611d4e161dc9"
        case .pinMismatchPermissive: return "af54e319073308afbc04e8976b62c419"
        case .pinSetEmpty: return "34ce1da6215cd49a8719b9cea3811281"
        case .pinSetExpired: return "1351f50ef57d5578c8955db041376d85"
        case .probeFailed: return "919779c6c4456e4b8214e7facd4bd98f"
        case .probeRecovered: return "29d0abe1876ed4a288d4df535846815e"
        case .chainChanged: return "cee90f9c37eec6daf42081ee7b517897"
        case .backupPinInUse: return "feea31fe1b1b1baa0a2b5b47634d3ad1"
        case .reservePinMissing: return "c3bd86be8bfeb296a5895312cbd0547d"
        case .expiryWarning: return "ca31498d9a8415f0e86e1f52b6c9344b"
        case .pinBreakageImminent: return "b76a227ab3dfcc7fd2185e4c50388ee9"
        case .configLoaded: return "e9f662f37f021f7ea08c7fd14832ac76"
        case .configInvalid: return "4b7eb0b4df4edd628faf0d66acdc5198"
        case .policyLintFinding: return "cb598983e9677e755671a9b415f4a0e3"
        case .resolutionFailed: return "c8866d71f596f82be06da10466ad4b25"
        case .addressSetChanged: return "48d52f2bb2a4e73238f8272eb99fa18e"
        case .addressesOverLimit: return "b02d95a3e70f6e3facb4dfea5e8f4b3e"
        case .chainDivergence: return "ea6f1379150269e5cd48f289b40502bf"
        case .mtlsIdentityUsed: return "380315a18fd24e8f8a007fa3a292af24"
        case .mtlsIdentityMissing: return "a36b98ad64c04676b6cc781a8ec3ea8b"
        case .policyBundleRejected: return "5ccc7ebcb974405fba6b1c8879e04576"
        case .rawKeyPin: return "b05f025f80062cdc12b0a8418ec7399b"
        case .certificateRenewed: return "dc58a4344202474585a2bada85aef124"
        case .chainRollback: return "7a40faa87a6b4f99acd2374d60836792"
        case .stateNotPersisted: return "eb3073429f3b4617883465b4e9edc0c8"
        case .stateUnavailable: return "a5248d2d4f5040d2be0f63ac0a3b8dc3"
        case .stateRecovered: return "8e43fabb557f43ac85361bdb28bbf90b"
        case .renewalWillBreakPins: return "19e5946e5dce40e6a3fd6f3efacb0adf"
        case .ctNotCompliant: return "ba6f6a6c53294122a540d2553caebf4a"
        case .stagedChainRejected: return "00ece9b38c834041acae82121ec0c10f"
        case .stagedChainUnreadable: return "d426cee0430a46c5a41c78ed4681093a"
        }
    }

    /// syslog priority: 3 error (a client rejects, a probe fails), 4 warning, 5 notice, 6 info.
    public var priority: Int {
        switch self {
        case .policyMissing: return 4
        case .systemTrustFailed: return 3
        case .systemTrustFailedPermissive: return 4
        case .pinMatched: return 6
        case .pinMismatch: return 3
        case .pinMismatchAllowedByFallback: return 4
        case .pinMismatchPermissive: return 4
        case .pinSetEmpty: return 4
        case .pinSetExpired: return 4
        case .probeFailed: return 3
        case .probeRecovered: return 5
        case .chainChanged: return 5
        case .backupPinInUse: return 4
        case .reservePinMissing: return 4
        case .expiryWarning: return 4
        case .pinBreakageImminent: return 4
        case .configLoaded: return 6
        case .configInvalid: return 3
        case .policyLintFinding: return 4
        case .resolutionFailed: return 3
        case .addressSetChanged: return 5
        case .addressesOverLimit: return 4
        case .chainDivergence: return 4
        case .mtlsIdentityUsed: return 6
        case .mtlsIdentityMissing: return 4
        case .policyBundleRejected: return 3
        case .rawKeyPin: return 4
        case .certificateRenewed: return 5
        case .chainRollback: return 4
        case .stateNotPersisted: return 5
        case .stateUnavailable: return 3
        case .stateRecovered: return 5
        case .renewalWillBreakPins: return 4
        case .ctNotCompliant: return 3
        case .stagedChainRejected: return 4
        case .stagedChainUnreadable: return 4
        }
    }

    /// One-line summary, used as the catalog subject.
    public var summary: String {
        switch self {
        case .policyMissing: return "No pinning policy covers the target"
        case .systemTrustFailed: return "Chain fails system trust; a strict client rejects"
        case .systemTrustFailedPermissive: return "Chain fails system trust; a permissive client accepts"
        case .pinMatched: return "A configured pin matches the served chain"
        case .pinMismatch: return "No pin matches; the pinned client rejects the connection"
        case .pinMismatchAllowedByFallback: return "No pin matches; the client accepts through system-trust fallback"
        case .pinMismatchPermissive: return "No pin matches; a permissive client accepts and reports"
        case .pinSetEmpty: return "The host policy has no pins"
        case .pinSetExpired: return "The pin set has expired; pins are not enforced"
        case .probeFailed: return "The probe retrieved no chain"
        case .probeRecovered: return "The probe retrieves a chain again"
        case .chainChanged: return "The served leaf key or chain changed"
        case .backupPinInUse: return "Only backup pins match: a rotation happened"
        case .reservePinMissing: return "No reserve pin: no configured pin is absent from the chain"
        case .expiryWarning: return "A chain certificate expires soon"
        case .pinBreakageImminent: return "The pins that match today stop matching soon"
        case .configLoaded: return "Configuration and policies loaded"
        case .configInvalid: return "Configuration rejected; the previous one stays in force"
        case .policyLintFinding: return "Policy lint finding"
        case .resolutionFailed: return "The target's name no longer resolves"
        case .addressSetChanged: return "The target's name resolves to a different set of addresses"
        case .addressesOverLimit: return "The target's name has more addresses than max_addresses; some are not probed"
        case .chainDivergence: return "The addresses of one target serve different chains"
        case .mtlsIdentityUsed: return "The server asked for a client certificate; the configured one was sent"
        case .mtlsIdentityMissing: return "The server asked for a client certificate; none was sent"
        case .policyBundleRejected: return "A signed policy bundle fails verification; clients keep their previous pins"
        case .rawKeyPin: return "A pin is the hash of a raw public key, not of its SubjectPublicKeyInfo"
        case .certificateRenewed: return "The target's certificate was renewed"
        case .chainRollback: return "An address went back to an older certificate"
        case .stateNotPersisted: return "Served chains are remembered in memory only"
        case .stateUnavailable: return "The state file cannot be used; served chains are remembered in memory"
        case .stateRecovered: return "The state file is written again"
        case .renewalWillBreakPins: return "The forecast of the next renewal changed for a pinned client"
        case .ctNotCompliant: return "Too few valid SCTs for the client's CT policy; the client rejects before pins"
        case .stagedChainRejected: return "A chain staged in files: would be rejected once served"
        case .stagedChainUnreadable: return "A certificate file of files: cannot be judged"
        }
    }
}
