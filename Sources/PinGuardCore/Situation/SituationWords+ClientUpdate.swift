import Foundation

/// The words of a change ahead in a client's store that breaks an app (docs/reference.md, Clients and their
/// stores), and of a reject that only some of the client's versions reach.
extension SituationWords {
    func breaksOnClientUpdate(_ e: Evaluation) -> Situation {
        let breaks = e.clientUpdates.sorted { ($0.date ?? .distantFuture) < ($1.date ?? .distantFuture) }
        let first = breaks[0]
        let severity: Situation.Severity = first.date.map { $0.timeIntervalSince(now) <= 7 * CertificateSchedule.day } ?? false
            ? .critical : .warning
        let what = breaks.prefix(3).map { b in
            "on \(b.verdict.versionWords) once \(b.changeWords): \(Self.pathWords(b.verdict))"
        }.joined(separator: "; ")
        let anchors = Array(Set(breaks.compactMap { b in b.verdict.anchorSPKI.map { "sha256/\($0) (\(b.verdict.anchorSubject ?? "?"))" } })).sorted()
        let deadline = first.date.map { " before \(Self.day($0))" } ?? " before those versions reach its users"
        let action = anchors.isEmpty
            ? "Serve \(name) a chain that the changed store still anchors under a pin of \(e.policySet), or ship new pins\(deadline)."
            : "Ship an update of \(e.policySet) that also pins \(anchors.joined(separator: ", "))\(deadline), or serve \(name) a chain "
                + "whose path on those versions still reaches a pinned key; check with pinguard probe \(result.target.host) --json (paths)."
        return make(.breaksOnClientUpdate, severity, e, due: first.date,
                    summary: "\(Self.app(e)) accepts \(name) today but rejects it \(what)", action: action)
    }

    /// "rejects on Android API 34-37: the path ends at CN=Root YE and no pin matches a certificate of it".
    public static func sentence(_ v: VersionVerdict) -> String {
        "\(v.verdict == .reject ? "rejects" : "accepts") on \(v.versionWords): \(pathWords(v))"
    }

    /// "the path ends at CN=Root YE and no pin matches a certificate of it", for a version range's decision.
    public static func pathWords(_ v: VersionVerdict) -> String {
        let anchor = v.anchorSubject.map { "the path ends at \($0)" }
        switch v.reason {
        case .pinMatch: return (anchor ?? "a path") + " and a pin matches it"
        case .pinMismatch: return (anchor ?? "the path") + " and no pin matches a certificate of it"
        case .systemTrustFailed, .systemTrustFailedPermissive:
            return "the client does not trust the chain: \(v.trustError ?? "no path")"
        case .pinMismatchAllowedByFallback: return (anchor ?? "the path") + ", no pin matches, the set falls back to system trust"
        default: return v.reason.rawValue + (anchor.map { " (\($0))" } ?? "")
        }
    }

    /// "; accepted on Android API 24-33, rejected on Android API 34-37 (the path ends at ...)" when the client's
    /// versions disagree; empty when they do not.
    static func versionsWords(_ e: Evaluation) -> String {
        guard Set(e.paths.map(\.verdict)).count > 1 else { return "" }
        let rejecting = e.paths.filter { $0.verdict == .reject }.prefix(3).map { "\($0.versionWords) (\(pathWords($0)))" }
        let accepting = e.paths.filter { $0.verdict == .accept }.map(\.versionWords)
        return "; rejected on \(rejecting.joined(separator: ", ")), accepted on \(accepting.joined(separator: ", "))"
    }
}
