import Foundation

extension SituationWords {
    /// The renewal is at risk only with a fresh key, and safe ways exist.
    func renewalAtRisk(_ e: Evaluation, _ f: SetForecast, _ o: RenewalOutlook, severity: Situation.Severity) -> Situation {
        make(.renewalAtRisk, severity, e, due: o.nextRenewal,
             summary: "The next renewal of \(name) (due \(Self.day(o.nextRenewal))) is at risk for \(Self.app(e)): "
                + "it rejects a fresh key, and no key plan is declared, observed or staged",
             action: "Make the renewal safe: " + Self.safeWays(f.safeKeys) + ".")
    }

    /// The next renewal, as known, breaks the app.
    func breaksAtRenewal(_ e: Evaluation, _ f: SetForecast, _ o: RenewalOutlook, severity: Situation.Severity) -> Situation {
        let file = o.keyBasis == .staged ? o.stagedFile ?? "" : ""
        var action: String
        if !file.isEmpty {
            action = "Do not deploy \(file): \(e.policySet) does not accept it. Re-issue it "
                + (f.safeKeys.any ? Self.safeKeyList(f.safeKeys) : "for a key and issuer \(e.policySet) pins")
                + ", or ship its pin in \(e.policySet) first; check it with pinguard plan --chain \(file)."
        } else if f.safeKeys.any {
            action = "Renew \(name) safely: " + Self.safeWays(f.safeKeys) + "."
        } else {
            action = Self.shipPins(e, f, o) + "."
        }
        let percent = Int((f.rejectRatio * 100).rounded())
        return make(.breaksAtRenewal, severity, e, file: file, due: o.nextRenewal,
                    summary: "The next renewal of \(name) (due \(Self.day(o.nextRenewal))) breaks \(Self.app(e)): "
                        + Self.why(f, o, file: file) + (percent < 100 ? " (\(percent)% of plausible renewals)" : ""),
                    action: action)
    }

    /// A staged chain the app rejects, while the served one is fine and the renewal is more than 30 days ahead.
    func stagedRejected(_ e: Evaluation, _ f: SetForecast, _ o: RenewalOutlook, file: String) -> Situation {
        make(.stagedRejected, .warning, e, file: file, due: o.nextRenewal,
             summary: "The staged chain \(file) for \(name) would be rejected by \(Self.app(e)) once served: "
                + Self.why(f, o, file: file) + "; the served chain is accepted",
             action: "Do not deploy \(file) as it is: re-issue it "
                + (f.safeKeys.any ? Self.safeKeyList(f.safeKeys) : "for a key and issuer \(e.policySet) pins")
                + ", or ship its pin in \(e.policySet) first; check it with pinguard plan --chain \(file).")
    }

    /// Why the next chain is rejected: the key, only when the app pins today's leaf key and the next one is not
    /// pinned; the CA's next issuers no pin covers, by name, when the key alone does not explain it.
    public static func why(_ f: SetForecast, _ o: RenewalOutlook, file: String) -> String {
        var parts: [String] = []
        if f.keyUnpinned {
            if let staged = o.stagedLeaf, !file.isEmpty {
                parts.append("\(file) is on key sha256/\(staged.spkiSHA256), which it does not pin")
            } else {
                parts.append("the next key is \(keyWords(o)) and not pinned")
            }
        }
        let issuersAreWhy = !f.keyUnpinned || f.uncoveredIssuers.count < o.issuers.count
        if !f.uncoveredIssuers.isEmpty && issuersAreWhy {
            let all = f.uncoveredIssuers.count == o.issuers.count && o.issuers.count > 1 ? " (every issuer it may use)" : ""
            parts.append("no pin covers the CA's next issuer\(f.uncoveredIssuers.count == 1 ? "" : "s") "
                         + f.uncoveredIssuers.joined(separator: ", ") + all)
        }
        let said = parts.isEmpty ? "no pin matches the next chain" : parts.joined(separator: "; ")
        return f.rejectingVersions.map { "\(said) (on \($0); its other versions accept it)" } ?? said
    }

    /// What to ship when no renewal is safe, by the true cause: pins of the CA's next issuers (named, with their
    /// keys) or of a root they chain to, or the next key.
    static func shipPins(_ e: Evaluation, _ f: SetForecast, _ o: RenewalOutlook) -> String {
        let by = "before \(day(o.nextRenewal))"
        let uncovered = o.issuers.filter { f.uncoveredIssuers.contains($0.name) }
        if !f.keyUnpinned, !uncovered.isEmpty {
            let named = uncovered.prefix(3).map { option in
                option.chain.first.map { "\(option.name) (sha256/\($0.spkiSHA256))" } ?? option.name
            }.joined(separator: ", ")
            return "Ship a release of \(e.policySet) that pins the CA's next issuer\(uncovered.count == 1 ? "" : "s") \(named) "
                + "or a root every issuer chains to \(by), or have the certificate renewed from an issuer \(e.policySet) pins"
        }
        return "Ship a release of \(e.policySet) that pins the next key \(by), or renew on a key it pins"
    }

    /// The next key and what says so: "kept (declared)", "new (observed)", "not known (no key plan declared,
    /// observed or staged)".
    static func keyWords(_ o: RenewalOutlook) -> String {
        switch o.key {
        case .reuse: "kept (\(o.keyBasis.rawValue))"
        case .rotate: "new (\(o.keyBasis.rawValue))"
        case .unknown: "not known (no key plan declared, observed or staged)"
        }
    }

    /// The safe ways to renew, in the words every surface uses.
    public static func safeWays(_ keys: SafeKeys) -> String {
        var ways: [String] = []
        if keys.keepCurrent {
            ways.append("keep the key (renewal.key: reuse in pinguard.yml; certbot --reuse-key; cert-manager rotationPolicy: Never)")
        }
        if !keys.pinnedBackups.isEmpty {
            ways.append("move to the pinned backup key " + keys.pinnedBackups.map { "sha256/\($0)" }.joined(separator: " or "))
        }
        ways.append("stage the next chain in files: so pinguard checks it before it is served")
        return ways.joined(separator: ", or ")
    }

    /// The keys to re-issue a staged chain with.
    static func safeKeyList(_ keys: SafeKeys) -> String {
        var with: [String] = []
        if keys.keepCurrent { with.append("with the current key (certbot --reuse-key)") }
        if !keys.pinnedBackups.isEmpty { with.append("with the pinned backup key " + keys.pinnedBackups.map { "sha256/\($0)" }.joined(separator: " or ")) }
        return with.joined(separator: " or ")
    }

    /// How to renew without breaking an app, when some app's forecast breaks: for the certificate-wide advice.
    func keyAdvice() -> String {
        let breaking = result.forecasts.filter { $0.rejectRatio > 0 }
        guard !breaking.isEmpty else { return "" }
        if breaking.allSatisfy(\.safeKeys.keepCurrent) { return ", keeping its key (certbot --reuse-key) so pinned apps keep accepting" }
        let backups = Set(breaking.flatMap(\.safeKeys.pinnedBackups)).sorted()
        if let b = backups.first { return ", on the pinned backup key sha256/\(b)" }
        return ", with a key or CA that \(breaking.map(\.policySet).joined(separator: ", ")) pins"
    }
}
