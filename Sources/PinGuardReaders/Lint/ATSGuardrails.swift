import PinGuardCore

/// App Transport Security settings of an Info.plist that undo what pinning protects: plain HTTP and old TLS.
///
/// A pin is checked on an HTTPS connection only; when ATS lets the app reach a host over HTTP, or over TLS
/// below 1.2, an attacker who can intercept picks that path instead. Each finding is an error when the domain
/// concerned is pinned in the same file (or, for `NSAllowsArbitraryLoads`, always), a warning otherwise.
enum ATSGuardrails {
    /// Keys whose presence makes iOS 10 and later ignore `NSAllowsArbitraryLoads`.
    static let arbitraryLoadsOverrides = ["NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia",
                                          "NSAllowsLocalNetworking"]
    /// TLS versions below the ATS default minimum (TLS 1.2).
    static let weakTLSVersions: Set<String> = ["TLSv1.0", "TLSv1.1", "SSLv3"]

    /// Findings for the `NSAppTransportSecurity` dictionary of `root`, if it has one.
    static func check(_ root: PlistNode, pinned: PinnedPatterns, file: String, policySet: String) -> [LintFinding] {
        guard let ats = root["NSAppTransportSecurity"], ats.entries != nil else { return [] }
        var out: [LintFinding] = []
        func add(_ rule: LintRule, _ severity: FindingSeverity, pattern: String?, line: Int?, _ message: String, hint: String) {
            out.append(LintFinding(rule: rule, severity: severity, policySet: policySet, environment: nil, pattern: pattern,
                                   file: file, line: line, message: message, hint: hint))
        }
        if let arbitrary = ats.entry("NSAllowsArbitraryLoads"), arbitrary.value.bool == true {
            let overrides = arbitraryLoadsOverrides.filter { ats.entry($0) != nil }
            if overrides.isEmpty {
                add(.atsArbitraryLoads, .error, pattern: nil, line: arbitrary.keyLine,
                    "NSAllowsArbitraryLoads is true: ATS allows plain HTTP and any TLS for every domain not listed in NSExceptionDomains, so no pin protects a connection the app makes over http://",
                    hint: "remove NSAllowsArbitraryLoads and list the domains that need it under NSExceptionDomains")
            } else {
                add(.atsArbitraryLoads, .warning, pattern: nil, line: arbitrary.keyLine,
                    "NSAllowsArbitraryLoads is true; iOS 10 and later ignore it because \(overrides.joined(separator: ", ")) is present, but earlier systems allow plain HTTP to every domain",
                    hint: "remove NSAllowsArbitraryLoads unless the app supports iOS 9")
            }
        }
        guard let exceptions = ats.entry("NSExceptionDomains"), let domains = exceptions.value.entries else { return out }
        for domain in domains {
            guard let settings = domain.value.entries else { continue }
            let host = HostPattern.normalize(domain.key)
            let subdomains = domain.value["NSIncludesSubdomains"]?.bool == true
            let hits = pinned.overlapping(host, subdomains: subdomains)
            let scope = subdomains ? "\(host) and its subdomains" : host
            let pinnedNote = hits.isEmpty ? "" : " although \(hits.map(\.description).joined(separator: ", ")) is pinned"
            let severity: FindingSeverity = hits.isEmpty ? .warning : .error
            for s in settings {
                switch s.key {
                case "NSExceptionAllowsInsecureHTTPLoads", "NSThirdPartyExceptionAllowsInsecureHTTPLoads":
                    guard s.value.bool == true else { continue }
                    add(.atsInsecureHTTPException, severity, pattern: host, line: s.keyLine ?? domain.keyLine,
                        "\(s.key) lets the app reach \(scope) over plain HTTP\(pinnedNote): a pin protects HTTPS only, so an attacker who can intercept serves the http:// path",
                        hint: "serve \(host) over HTTPS and remove \(s.key)")
                case "NSExceptionMinimumTLSVersion", "NSThirdPartyExceptionMinimumTLSVersion":
                    guard let version = s.value.string, weakTLSVersions.contains(version) else { continue }
                    add(.atsTLSMinimumException, severity, pattern: host, line: s.value.line ?? s.keyLine ?? domain.keyLine,
                        "\(s.key) is \(version) for \(scope)\(pinnedNote): ATS accepts protocol versions with known weaknesses (RFC 8996 deprecates TLS 1.0 and 1.1)",
                        hint: "remove \(s.key) or set it to TLSv1.2")
                default:
                    continue
                }
            }
        }
        return out
    }
}
