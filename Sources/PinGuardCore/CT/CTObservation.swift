/// What a probe (or a certificate file) shows about Certificate Transparency: the SCTs found, whether the
/// chain is anchored in a root the clients treat as public, and each client policy's verdict, judged once
/// per chain and read by every policy set.
public struct CTObservation: Sendable, Equatable {
    /// Whether SCTs were looked for (CT is configured for some policy set); false leaves CT unjudged.
    public var collected: Bool
    /// The SCTs found, from every source, with their signature checks.
    public var scts: [ObservedSCT]
    /// Whether the verified chain ends at a root treated as publicly trusted (`ct.public_roots`, else the
    /// system trust store); the clients exempt other roots (a private CA, user or MDM roots).
    public var publiclyAnchored: Bool
    /// Each policy's verdict; empty when not judged.
    public var judgements: [CTPolicyKind: CTJudgement]

    /// Creates an observation; the default is "not collected".
    public init(collected: Bool = false, scts: [ObservedSCT] = [], publiclyAnchored: Bool = false,
                judgements: [CTPolicyKind: CTJudgement] = [:]) {
        self.collected = collected
        self.scts = scts
        self.publiclyAnchored = publiclyAnchored
        self.judgements = judgements
    }

    /// The verdict of `policy`, if judged.
    public func judgement(_ policy: CTPolicyKind) -> CTJudgement? { judgements[policy] }
}
