import Foundation

extension EventDetector {
    /// `mtls_identity_used` / `mtls_identity_missing` when the answer to a server's request for a client
    /// certificate changes. `state` remembers `used`, `missing` or `not_requested`; a probe that ended before
    /// the server could ask (no chain, no request) leaves it as it was.
    static func clientAuthEvents(_ t: Target, _ f: ProbeFacts, who: String, memory state: inout String?,
                                 fields: EventFields) -> [JournalEntry] {
        let c = f.clientAuth
        guard f.success || c.requested else { return [] }
        let now = !c.requested ? "not_requested" : (c.presented ? "used" : "missing")
        defer { state = now }
        guard c.requested, state != now else { return [] }
        var fields = fields.list
        if let subject = c.certificateSubject { fields.append(("PINGUARD_CLIENT_CERT_SUBJECT", subject)) }
        if let notAfter = c.certificateNotAfter {
            fields.append(("PINGUARD_CLIENT_CERT_NOT_AFTER", RFC3339.format(notAfter)))
            fields.append(("PINGUARD_DAYS_TO_EXPIRY", days(notAfter.timeIntervalSince(f.finishedAt) / Evaluator.secondsPerDay)))
        }
        if c.presented {
            return [JournalEntry(event: .mtlsIdentityUsed,
                                 message: "\(who): the server asked for a client certificate; sent \(c.certificateSubject ?? "?") (valid until \(c.certificateNotAfter.map(RFC3339.format) ?? "?"))",
                                 fields: fields)]
        }
        let why = c.identityConfigured
            ? "the configured identity could not be used: \(c.error ?? "unknown error")"
            : "no client identity is configured (client_cert/client_key or client_pkcs12); clients without one are refused or get less"
        if let e = c.error { fields.append(("PINGUARD_ERROR", e)) }
        return [JournalEntry(event: .mtlsIdentityMissing,
                             message: "\(who): the server asked for a client certificate and none was sent: \(why)",
                             fields: fields)]
    }
}
