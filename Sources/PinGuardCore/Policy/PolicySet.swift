/// One pinned client (an app, optionally a version) with a policy set per environment.
public struct PolicySet: Sendable, Equatable {
    /// Unique name; label value `policy_set`.
    public var name: String
    /// Optional app version.
    public var version: String?
    /// Policies per environment name.
    public var environments: [String: PolicyEnvironment]
    /// File the set was loaded from.
    public var file: String?
    /// Line of `name:` in that file, for errors.
    public var nameLine: Int?
    /// Which client the set stands for (`client:`), for Certificate Transparency.
    public var client: CTClient = .none
    /// `certificate_transparency:`: overrides whether the client enforces CT; nil = the client's default.
    public var certificateTransparency: CTRequirement?
    /// `client_versions:`: the versions of `client` the app runs on (Android API levels, iOS releases, Chrome
    /// milestones); nil: the versions still in use, as the bundled stores say.
    public var clientVersions: ClientVersions?

    /// Creates a policy set.
    public init(name: String, version: String? = nil, environments: [String: PolicyEnvironment], file: String? = nil) {
        self.name = name
        self.version = version
        self.environments = environments
        self.file = file
    }

    /// The CT policy the set's client holds chains to, or nil when it does not check CT.
    public var ctPolicy: CTPolicyKind? {
        let enforced = certificateTransparency.map { $0 == .required } ?? client.enforcesByDefault
        return enforced ? client.policy : nil
    }

    /// The CT policy the client holds a host to under `policy` (the host's own rule, when it has one): the rule's
    /// `certificate_transparency` when it sets one, else the set's.
    public func ctPolicy(under policy: HostPolicy?) -> CTPolicyKind? {
        guard let own = policy?.certificateTransparency else { return ctPolicy }
        return own == .required ? client.policy : nil
    }

    /// Whether the client checks CT for some host: the set's setting or one of its policies'.
    public var checksCT: Bool {
        ctPolicy != nil || environments.values.contains { env in
            (env.rules.map(\.policy) + (env.defaultPolicy.map { [$0] } ?? [])).contains { $0.certificateTransparency == .required }
        }
    }

    /// Whether `other` judges a host by the same policy as this set does whenever both select the same one:
    /// the same name, client, client versions and CT requirement (what a decision reads of a set besides its
    /// host's policy).
    public func judgesHostsLike(_ other: PolicySet) -> Bool {
        name == other.name && client == other.client && clientVersions == other.clientVersions
            && certificateTransparency == other.certificateTransparency
    }

    /// Whether this set has a policy (a rule or a default) for `host` in `environment`.
    public func covers(host: String, environment: String) -> Bool {
        environments[environment]?.policy(for: host) != nil
    }
}
