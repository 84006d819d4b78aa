/// Which client a policy set stands for, as far as Certificate Transparency goes (`client:` in a policy
/// file): the client decides whether CT is enforced by default, which log list it reads and which policy
/// table it applies (docs/reference.md, Certificate Transparency).
public enum CTClient: String, Sendable, Codable, CaseIterable {
    /// iOS, iPadOS and macOS (App Transport Security, TrustKit): Apple's log list and policy, enforced.
    case ios
    /// Android's network security config: Chrome's log list and policy, off unless the app's file turns it on.
    case android
    /// Chrome: Chrome's log list and policy, enforced.
    case chrome
    /// A JVM client such as OkHttp: no CT check of its own.
    case jvm
    /// No particular client: no CT check.
    case none

    /// Whether the client enforces CT when the policy set does not say (`certificate_transparency`).
    public var enforcesByDefault: Bool { self == .ios || self == .chrome }

    /// The log list the client reads; Chrome's policy and list stand in for a client without a list of its
    /// own that a set holds to CT with `certificate_transparency: required`.
    public var logList: CTLogListName { policy.logList }

    /// The policy table the client applies.
    public var policy: CTPolicyKind {
        switch self {
        case .ios: .apple
        case .android: .android
        case .chrome, .jvm, .none: .chrome
        }
    }
}
