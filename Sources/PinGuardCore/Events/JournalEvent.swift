/// The journal events of docs/reference.md (Journal events). Each is declared once, in `declaration`: its fixed
/// 128-bit `MESSAGE_ID`, its default priority, its summary (the catalog's subject), the decision it reports and
/// the fields its entries carry;
/// the catalog and the documentation table are checked against it and the decision mapping is derived from it.
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
    case certificateRevoked = "certificate_revoked"
    case earlyRenewalRequested = "early_renewal_requested"
    case servedChainHazard = "served_chain_hazard"

    /// The event's one declaration.
    public var declaration: JournalEventDeclaration {
        switch self {
        case .policyMissing: JournalEventDeclaration("1817ea43b9a89d23f807bd14c04cd244", 4, "No pinning policy covers the target", reports: .policyMissing,
            fields: .leaf("PINGUARD_POLICY_SET", "PINGUARD_ENVIRONMENT", "PINGUARD_REASON", "PINGUARD_VERDICT", "PINGUARD_MATCHED_PINS", "PINGUARD_RESERVE_PINS", "PINGUARD_DAYS_TO_EXPIRY", "PINGUARD_DAYS_TO_PIN_BREAKAGE"))
        case .systemTrustFailed: JournalEventDeclaration("38aaaa42ceca35bb75deffa9ebfd9103", 3, "Chain fails system trust; a strict client rejects", reports: .systemTrustFailed,
            fields: .evaluation())
        case .systemTrustFailedPermissive: JournalEventDeclaration("7d2c61ac364e908c6d0acabc4203b4ca", 4, "Chain fails system trust; a permissive client accepts", reports: .systemTrustFailedPermissive,
            fields: .evaluation())
        case .pinMatched: JournalEventDeclaration("9a38da18878d87fa0b6fc30b299456fa", 6, "A configured pin matches the served chain", reports: .pinMatch,
            fields: .evaluation())
        case .pinMismatch: JournalEventDeclaration("9b4595a61c140fbeab9a48be8164eff0", 3, "No pin matches; the pinned client rejects the connection", reports: .pinMismatch,
            fields: .evaluation())
        case .pinMismatchAllowedByFallback: JournalEventDeclaration("3f194a676735a1c3a9b4611d4e161dc9", 4, "No pin matches; the client accepts through system-trust fallback", reports: .pinMismatchAllowedByFallback,
            fields: .evaluation())
        case .pinMismatchPermissive: JournalEventDeclaration("af54e319073308afbc04e8976b62c419", 4, "No pin matches; a permissive client accepts and reports", reports: .pinMismatchPermissive,
            fields: .evaluation())
        case .pinSetEmpty: JournalEventDeclaration("34ce1da6215cd49a8719b9cea3811281", 4, "The host policy has no pins", reports: .pinSetEmpty,
            fields: .evaluation())
        case .pinSetExpired: JournalEventDeclaration("1351f50ef57d5578c8955db041376d85", 4, "The pin set has expired; pins are not enforced", reports: .pinSetExpired,
            fields: .evaluation())
        case .probeFailed: JournalEventDeclaration("919779c6c4456e4b8214e7facd4bd98f", 3, "The probe retrieved no chain", reports: .probeFailed,
            fields: .address("PINGUARD_ERROR"))
        case .probeRecovered: JournalEventDeclaration("29d0abe1876ed4a288d4df535846815e", 5, "The probe retrieves a chain again", reports: nil,
            fields: .leaf())
        case .chainChanged: JournalEventDeclaration("cee90f9c37eec6daf42081ee7b517897", 5, "The served leaf key or chain changed", reports: nil,
            fields: .leaf("PINGUARD_PREVIOUS_LEAF_SPKI_SHA256"))
        case .backupPinInUse: JournalEventDeclaration("feea31fe1b1b1baa0a2b5b47634d3ad1", 4, "Only backup pins match: a rotation happened", reports: nil,
            fields: .evaluation())
        case .reservePinMissing: JournalEventDeclaration("c3bd86be8bfeb296a5895312cbd0547d", 4, "No reserve pin: no configured pin is absent from the chain", reports: nil,
            fields: .evaluation())
        case .expiryWarning: JournalEventDeclaration("ca31498d9a8415f0e86e1f52b6c9344b", 4, "A chain certificate expires soon", reports: nil,
            fields: .leaf("PINGUARD_DAYS_TO_EXPIRY"))
        case .pinBreakageImminent: JournalEventDeclaration("b76a227ab3dfcc7fd2185e4c50388ee9", 4, "The pins that match today stop matching soon", reports: nil,
            fields: .evaluation())
        case .configLoaded: JournalEventDeclaration("e9f662f37f021f7ea08c7fd14832ac76", 6, "Configuration and policies loaded", reports: nil,
            fields: .none("PINGUARD_CONFIG", "PINGUARD_TARGETS"))
        case .configInvalid: JournalEventDeclaration("4b7eb0b4df4edd628faf0d66acdc5198", 3, "Configuration rejected; the previous one stays in force", reports: nil,
            fields: .none("PINGUARD_CONFIG", "PINGUARD_ERROR"))
        case .policyLintFinding: JournalEventDeclaration("cb598983e9677e755671a9b415f4a0e3", 4, "Policy lint finding", reports: nil,
            fields: .none("PINGUARD_POLICY_SET", "PINGUARD_RULE", "PINGUARD_SEVERITY", "PINGUARD_ENVIRONMENT", "PINGUARD_PATTERN", "PINGUARD_FILE", "PINGUARD_LINE"))
        case .resolutionFailed: JournalEventDeclaration("c8866d71f596f82be06da10466ad4b25", 3, "The target's name no longer resolves", reports: nil,
            fields: .target("PINGUARD_ERROR", "PINGUARD_PREVIOUS_ADDRESSES"))
        case .addressSetChanged: JournalEventDeclaration("48d52f2bb2a4e73238f8272eb99fa18e", 5, "The target's name resolves to a different set of addresses", reports: nil,
            fields: .target("PINGUARD_ADDRESSES", "PINGUARD_PREVIOUS_ADDRESSES"))
        case .addressesOverLimit: JournalEventDeclaration("b02d95a3e70f6e3facb4dfea5e8f4b3e", 4, "The target's name has more addresses than max_addresses; some are not probed", reports: nil,
            fields: .target("PINGUARD_ADDRESS_COUNT", "PINGUARD_MAX_ADDRESSES"))
        case .chainDivergence: JournalEventDeclaration("ea6f1379150269e5cd48f289b40502bf", 4, "The addresses of one target serve different chains", reports: nil,
            fields: .target("PINGUARD_ADDRESS", "PINGUARD_LEAF_SPKI_SHA256", "PINGUARD_NOT_AFTER", "PINGUARD_OTHER_ADDRESS", "PINGUARD_OTHER_LEAF_SPKI_SHA256", "PINGUARD_OTHER_NOT_AFTER", "PINGUARD_DISTINCT_CHAINS"))
        case .mtlsIdentityUsed: JournalEventDeclaration("380315a18fd24e8f8a007fa3a292af24", 6, "The server asked for a client certificate; the configured one was sent", reports: nil,
            fields: .address("PINGUARD_CLIENT_CERT_SUBJECT", "PINGUARD_CLIENT_CERT_NOT_AFTER", "PINGUARD_DAYS_TO_EXPIRY"))
        case .mtlsIdentityMissing: JournalEventDeclaration("a36b98ad64c04676b6cc781a8ec3ea8b", 4, "The server asked for a client certificate; none was sent", reports: nil,
            fields: .address("PINGUARD_CLIENT_CERT_SUBJECT", "PINGUARD_CLIENT_CERT_NOT_AFTER", "PINGUARD_DAYS_TO_EXPIRY", "PINGUARD_ERROR"))
        case .policyBundleRejected: JournalEventDeclaration("5ccc7ebcb974405fba6b1c8879e04576", 3, "A signed policy bundle fails verification; clients keep their previous pins", reports: nil,
            fields: .none("PINGUARD_POLICY_SET", "PINGUARD_ENVIRONMENT", "PINGUARD_BUNDLE", "PINGUARD_REASON", "PINGUARD_KEPT_PINS", "PINGUARD_ERROR", "PINGUARD_SIGNATURE_SCHEME", "PINGUARD_KEY_ID"))
        case .servedChainHazard: JournalEventDeclaration("5f3c0a9e8b2d4e71a6c4d2b9e0f17a63", 4, "The served chain puts some versions of an app's client at risk", reports: nil,
            fields: .evaluation("PINGUARD_HAZARD"))
        case .rawKeyPin: JournalEventDeclaration("b05f025f80062cdc12b0a8418ec7399b", 4, "A pin is the hash of a raw public key, not of its SubjectPublicKeyInfo", reports: nil,
            fields: .evaluation("PINGUARD_PIN", "PINGUARD_DEPTH", "PINGUARD_SPKI_SHA256"))
        case .certificateRenewed: JournalEventDeclaration("dc58a4344202474585a2bada85aef124", 5, "The target's certificate was renewed", reports: nil,
            fields: .target("PINGUARD_ADDRESS", "PINGUARD_KEY_REUSED", "PINGUARD_ISSUER_CHANGED", "PINGUARD_OLD_SERIAL", "PINGUARD_NEW_SERIAL", "PINGUARD_NOT_AFTER", "PINGUARD_LEAF_SPKI_SHA256", "PINGUARD_ISSUER", "PINGUARD_OLD_ISSUER"))
        case .chainRollback: JournalEventDeclaration("7a40faa87a6b4f99acd2374d60836792", 4, "An address went back to an older certificate", reports: nil,
            fields: .target("PINGUARD_ADDRESS", "PINGUARD_OLD_SERIAL", "PINGUARD_NEW_SERIAL", "PINGUARD_NOT_AFTER", "PINGUARD_LEAF_SPKI_SHA256"))
        case .stateNotPersisted: JournalEventDeclaration("eb3073429f3b4617883465b4e9edc0c8", 5, "Served chains are remembered in memory only", reports: nil,
            fields: .none("PINGUARD_REASON"))
        case .stateUnavailable: JournalEventDeclaration("a5248d2d4f5040d2be0f63ac0a3b8dc3", 3, "The state file cannot be used; served chains are remembered in memory", reports: nil,
            fields: .none("PINGUARD_STATE_FILE", "PINGUARD_ERROR"))
        case .stateRecovered: JournalEventDeclaration("8e43fabb557f43ac85361bdb28bbf90b", 5, "The state file is written again", reports: nil,
            fields: .none("PINGUARD_STATE_FILE"))
        case .renewalWillBreakPins: JournalEventDeclaration("19e5946e5dce40e6a3fd6f3efacb0adf", 4, "The forecast of the next renewal changed for a pinned client", reports: nil,
            fields: .evaluation("PINGUARD_NEXT_RENEWAL", "PINGUARD_REJECT_RATIO", "PINGUARD_NEXT_KEY", "PINGUARD_KEY_BASIS", "PINGUARD_ISSUER_BASIS", "PINGUARD_UNCOVERED_ISSUERS"))
        case .ctNotCompliant: JournalEventDeclaration("ba6f6a6c53294122a540d2553caebf4a", 3, "Too few valid SCTs for the client's CT policy; the client rejects before pins", reports: .ctNotCompliant,
            fields: .evaluation("PINGUARD_CT_REASON"))
        case .stagedChainRejected: JournalEventDeclaration("00ece9b38c834041acae82121ec0c10f", 4, "A chain staged in files: would be rejected once served", reports: nil,
            fields: .none("PINGUARD_FILE", "PINGUARD_HOST", "PINGUARD_POLICY_SET", "PINGUARD_ENVIRONMENT", "PINGUARD_REASON"))
        case .stagedChainUnreadable: JournalEventDeclaration("d426cee0430a46c5a41c78ed4681093a", 4, "A certificate file of files: cannot be judged", reports: nil,
            fields: .none("PINGUARD_FILE", "PINGUARD_HOST", "PINGUARD_ERROR"))
        case .certificateRevoked: JournalEventDeclaration("6c1d0f3e8a2b4f47b9e5a07d2c93e1f4", 3, "A certificate of the served chain is revoked by its CA's CRL", reports: nil,
            fields: .address("PINGUARD_DEPTH", "PINGUARD_SUBJECT", "PINGUARD_SERIAL", "PINGUARD_REVOKED_AT", "PINGUARD_REVOCATION_REASON", "PINGUARD_CRL_URL", "PINGUARD_PINNED_BY"))
        case .earlyRenewalRequested: JournalEventDeclaration("4894f266411a4cf4b52f4a125a4a3938", 4, "The CA asks for the certificate to be renewed before its plan", reports: nil,
            fields: .target("PINGUARD_WINDOW_START", "PINGUARD_WINDOW_END", "PINGUARD_EXPLANATION_URL", "PINGUARD_POLICY_SETS"))
        }
    }

    /// Stable `MESSAGE_ID` (32 hex digits); documented in `contrib/journald/pinguard.catalog`.
    public var messageID: String { declaration.messageID }

    /// syslog priority: 3 error (a client rejects, a probe fails), 4 warning, 5 notice, 6 info.
    public var priority: Int { declaration.priority }

    /// One-line summary, used as the catalog subject.
    public var summary: String { declaration.summary }

    /// The event that reports each decision reason, derived from the declarations.
    static let reporting: [DecisionReason: JournalEvent] = Dictionary(
        allCases.compactMap { e in e.declaration.decision.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
}

/// How one journal event is declared (`JournalEvent.declaration`).
public struct JournalEventDeclaration: Sendable, Equatable {
    /// Stable `MESSAGE_ID`, 32 hex digits.
    public let messageID: String
    /// syslog priority.
    public let priority: Int
    /// One-line summary: the catalog's subject.
    public let summary: String
    /// The decision reason the event reports, when it reports one.
    public let decision: DecisionReason?
    /// The `PINGUARD_*` fields its entries may carry beyond those of every entry.
    public let fields: JournalFields

    init(_ messageID: String, _ priority: Int, _ summary: String, reports decision: DecisionReason?, fields: JournalFields) {
        self.messageID = messageID
        self.priority = priority
        self.summary = summary
        self.decision = decision
        self.fields = fields
    }
}
