extension JournalEntry {
    /// `policy_bundle_rejected`: a client rejects the bundle; the fields say why and which pins the clients keep.
    public static func policyBundleRejected(_ s: PolicyBundleStatus) -> JournalEntry {
        var fields: [(String, String)] = [("PINGUARD_POLICY_SET", s.bundle.name), ("PINGUARD_ENVIRONMENT", s.bundle.environment),
                                          ("PINGUARD_BUNDLE", s.bundle.file), ("PINGUARD_REASON", s.state.rawValue),
                                          ("PINGUARD_KEPT_PINS", s.kept.rawValue), ("PINGUARD_ERROR", s.error ?? "")]
        if let scheme = s.scheme {
            fields.append(("PINGUARD_SIGNATURE_SCHEME", scheme.name))
            fields.append(("PINGUARD_KEY_ID", scheme.keyID))
        }
        return JournalEntry(event: .policyBundleRejected, message: s.summary, fields: fields)
    }
}
