/// Pins that hash a key's raw bytes instead of its SubjectPublicKeyInfo (`lint --chain FILE`).
///
/// Some SDKs (Hyperspace, code hashing `SecKeyCopyExternalRepresentation` output) pin SHA-256 of the raw public
/// key; the same key's SPKI-based pin, which every other client compares, is a different value. Such a pin looks
/// valid and never matches: it is a missing pin that no other rule can see without the certificate.
public enum RawKeyPinCheck {
    /// A finding for every `spki` or `ca` pin of `sets` equal to the raw-key hash of a certificate in `chain`.
    ///
    /// - Parameter chainFile: the chain's file name, quoted in messages.
    public static func findings(_ sets: [PolicySet], chain: [ChainCertificate], chainFile: String) -> [LintFinding] {
        var byRawKey: [String: ChainCertificate] = [:]
        for c in chain {
            guard let raw = c.rawKeySHA256, raw != c.spkiSHA256, byRawKey[raw] == nil else { continue }
            byRawKey[raw] = c
        }
        guard !byRawKey.isEmpty else { return [] }
        var out: [LintFinding] = []
        for set in sets {
            for envName in set.environments.keys.sorted() {
                guard let env = set.environments[envName] else { continue }
                var policies = env.rules.map { ($0.pattern.description, $0.line, $0.policy) }
                if let d = env.defaultPolicy { policies.append(("default", env.line, d)) }
                for (pattern, ruleLine, policy) in policies {
                    for pin in policy.pins where pin.type != .certificate {
                        guard let c = byRawKey[pin.hash] else { continue }
                        let hasSPKI = policy.pins.contains { $0.hash == c.spkiSHA256 && $0.type != .certificate }
                        let which = c.depth == 0 ? "the first certificate (leaf)" : "certificate \(c.depth + 1)"
                        let consequence = hasSPKI
                            ? "the policy also pins the SPKI hash, so this pin is only dead weight"
                            : "a client that hashes the SPKI (TrustKit, ATS, OkHttp, Android, HPKP, pinguard) never matches it"
                        out.append(LintFinding(
                            rule: .rawKeyPin, severity: hasSPKI ? .warning : .error, policySet: set.name, environment: envName,
                            pattern: pattern, file: set.file, line: pin.line ?? ruleLine,
                            message: "pin \(pin.hash) of \(pattern) is the SHA-256 of the raw public key of \(which) in \(chainFile) (subject \(EchoedInput.bare(c.subject, limit: 200))), not of its SubjectPublicKeyInfo: \(consequence); its SPKI pin is \(c.spkiSHA256)",
                            hint: "pin \(c.spkiSHA256) instead (sha256/\(c.spkiSHA256) for OkHttp)"))
                    }
                }
            }
        }
        return out
    }
}
