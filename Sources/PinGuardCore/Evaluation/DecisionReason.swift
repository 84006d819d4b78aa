/// Why the client decided as it did; raw values are the reason and event names of docs/reference.md, Evaluation.
public enum DecisionReason: String, Sendable, Codable, CaseIterable {
    case policyMissing = "policy_missing"
    case systemTrustFailed = "system_trust_failed"
    case systemTrustFailedPermissive = "system_trust_failed_permissive"
    case pinMatch = "pin_match"
    case pinMismatch = "pin_mismatch"
    case pinMismatchAllowedByFallback = "pin_mismatch_allowed_by_fallback"
    case pinMismatchPermissive = "pin_mismatch_permissive"
    case pinSetEmpty = "pin_set_empty"
    case pinSetExpired = "pin_set_expired"
    case probeFailed = "probe_failed"
    case ctNotCompliant = "ct_not_compliant"
}
