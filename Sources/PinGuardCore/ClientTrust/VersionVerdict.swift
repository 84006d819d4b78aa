/// One client's decision for a range of its versions: the path it builds there and what it decides on it.
public struct VersionVerdict: Sendable, Equatable {
    /// The versions; nil: every version (a store without versions, or `trust.ca_file`).
    public var versions: ClientVersions?
    /// Base64 SHA-256 of each certificate of the path, leaf first.
    public var chain: [String]
    /// Base64 SHA-256 of the anchor's certificate; nil when the client trusts no path.
    public var anchor: String?
    /// The anchor's subject, for words.
    public var anchorSubject: String?
    /// Base64 SHA-256 of the anchor's SubjectPublicKeyInfo: the pin that would cover it.
    public var anchorSPKI: String?
    /// The decision on these versions.
    public var verdict: Verdict
    /// Why.
    public var reason: DecisionReason
    /// Why the client does not trust the chain, when it does not.
    public var trustError: String?
    /// How the client's versions are named in words (`Android API`, `iOS`, `Chrome`); empty when unnamed.
    public var versionName: String = ""
    /// Hazards of the served chain for these versions, in words.
    public var hazards: [String] = []

    /// `Android API 24-37`, or `every version` for a store without versions.
    public var versionWords: String {
        guard let versions else { return "every version" }
        return versionName.isEmpty ? "versions \(versions)" : "\(versionName) \(versions)"
    }

    /// A decision for `versions`.
    public init(versions: ClientVersions?, chain: [String], anchor: String?, anchorSubject: String?, verdict: Verdict,
                reason: DecisionReason, trustError: String?) {
        self.versions = versions
        self.chain = chain
        self.anchor = anchor
        self.anchorSubject = anchorSubject
        self.verdict = verdict
        self.reason = reason
        self.trustError = trustError
    }

    /// Same path and decision (the versions aside): two neighbouring ranges that agree are one.
    func agrees(with other: VersionVerdict) -> Bool {
        chain == other.chain && anchor == other.anchor && verdict == other.verdict && reason == other.reason
            && trustError == other.trustError
    }
}
