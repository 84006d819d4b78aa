import Foundation

/// Offline checks of policy sets (`pinguard lint`): pins that leave no way to rotate, expiring pin-sets,
/// fail-open production settings, CA pins, patterns that are too broad or shadow each other.
public enum PolicyLinter {
    /// Environment names whose policies must not fail open.
    public static let productionEnvironments: Set<String> = ["prod", "production"]

    /// Lints `sets` at `now`; findings come in set order, then environment name, then rule order.
    ///
    /// - Parameter expiringWithinDays: a pin-set expiring within this many days is a warning.
    /// - Parameter catalog: the public issuer pools pins on intermediates are checked against.
    public static func lint(_ sets: [PolicySet], now: Date, publicSuffixes: PublicSuffixList,
                            expiringWithinDays: Int = 30, catalog: IssuerCatalog = .empty) -> [LintFinding] {
        var out: [LintFinding] = []
        for set in sets {
            out += lintCertificateTransparency(set)
            for envName in set.environments.keys.sorted() {
                guard let env = set.environments[envName] else { continue }
                var ctx = Context(set: set, environment: envName, now: now, window: expiringWithinDays, catalog: catalog, findings: [])
                ctx.lint(env, publicSuffixes: publicSuffixes)
                out += ctx.findings
            }
        }
        return out
    }

    /// `ct-off`: a set of a client that enforces CT, told not to check it.
    static func lintCertificateTransparency(_ set: PolicySet) -> [LintFinding] {
        guard set.client.enforcesByDefault, set.certificateTransparency == .off else { return [] }
        return [LintFinding(rule: .ctOff, severity: LintRule.ctOff.defaultSeverity, policySet: set.name, environment: nil,
                            pattern: nil, file: set.file, line: set.nameLine,
                            message: "client: \(set.client.rawValue) with certificate_transparency: off: \(set.client.rawValue) rejects a "
                                + "publicly trusted chain without enough SCTs and no app can turn that off, so this set accepts chains the client rejects",
                            hint: "remove certificate_transparency: off")]
    }

    /// Lint state for one environment of one set.
    struct Context {
        let set: PolicySet
        let environment: String
        let now: Date
        let window: Int
        let catalog: IssuerCatalog
        var findings: [LintFinding]

        mutating func add(_ rule: LintRule, _ severity: FindingSeverity? = nil, pattern: String?, line: Int?,
                          _ message: String, hint: String) {
            findings.append(LintFinding(rule: rule, severity: severity ?? rule.defaultSeverity, policySet: set.name,
                                        environment: environment, pattern: pattern, file: set.file, line: line,
                                        message: message, hint: hint))
        }

        mutating func lint(_ env: PolicyEnvironment, publicSuffixes: PublicSuffixList) {
            if env.rules.isEmpty && env.defaultPolicy == nil {
                add(.emptyEnvironment, pattern: nil, line: env.line,
                    "environment \(environment) has no policies and no default_policy, so it covers no host",
                    hint: "add policies or a default_policy, or remove the environment")
            }
            var byPattern: [HostPattern: PatternRule] = [:]
            for rule in env.rules where byPattern[rule.pattern] == nil { byPattern[rule.pattern] = rule }
            for rule in env.rules {
                let name = rule.pattern.description
                let broader = nearestBroader(rule, in: byPattern)
                lintPattern(rule, broader: broader, publicSuffixes: publicSuffixes)
                lintPolicy(rule.policy, pattern: name, line: rule.line, broader: broader)
            }
            if let d = env.defaultPolicy {
                lintPolicy(d, pattern: "default", line: d.pins.first?.line ?? env.line, broader: nil)
            }
        }

        /// The rule whose policy hosts of `rule` would get if `rule` were removed (among rules containing it).
        ///
        /// Only `*.parent` and `**.suffix` patterns can contain another pattern, so the candidates are
        /// looked up by the rule's label suffixes: linear in the number of rules, where comparing every
        /// pair took minutes for 14,000 patterns.
        func nearestBroader(_ rule: PatternRule, in rules: [HostPattern: PatternRule]) -> PatternRule? {
            let labels = rule.pattern.domain.split(separator: ".", omittingEmptySubsequences: false)
            var candidates: [HostPattern] = []
            for i in 0..<labels.count {
                let suffix = labels[i...].joined(separator: ".")
                candidates.append(.anyDepth(suffix))
                if i == 1 { candidates.append(.oneLabel(suffix)) }
            }
            return candidates.compactMap { rules[$0] }
                .filter { $0.pattern != rule.pattern && rule.pattern.isContained(in: $0.pattern) }
                .max { $1.pattern.outranks($0.pattern) }
        }

        mutating func lintPattern(_ rule: PatternRule, broader: PatternRule?, publicSuffixes: PublicSuffixList) {
            let name = rule.pattern.description
            switch rule.pattern {
            case .oneLabel(let d), .anyDepth(let d):
                if publicSuffixes.isPublicSuffix(d) {
                    add(.publicSuffixPattern, pattern: name, line: rule.line,
                        "\(name) covers every name registered under the public suffix \(d), hosts of unrelated owners (TrustKit refuses includeSubdomains on a suffix)",
                        hint: "pin your own registrable domain, e.g. **.example.\(d)")
                }
            case .exact:
                break
            }
            guard !rule.policy.pins.isEmpty, let outer = broader, !outer.policy.pins.isEmpty else { return }
            let inner = Set(rule.policy.pins.map(PinKey.init))
            let missing = outer.policy.pins.filter { !inner.contains(PinKey($0)) }
            guard !missing.isEmpty else { return }
            let where_ = outer.line.map { " (line \($0))" } ?? ""
            add(.shadowedPattern, pattern: name, line: rule.line,
                "hosts matching \(name) get only its own pins, not the \(missing.count) other pin(s) of \(outer.pattern)\(where_); a client that merges matching patterns (OkHttp) would accept those too",
                hint: "if these hosts should accept the broader pins, add them to \(name)")
        }

        mutating func lintPolicy(_ p: HostPolicy, pattern: String, line: Int?, broader: PatternRule?) {
            if productionEnvironments.contains(environment.lowercased()) { lintProduction(p, pattern: pattern, line: line) }
            if let expires = p.expires { lintExpiry(expires, pattern: pattern, line: line) }
            guard !p.pins.isEmpty else {
                if let outer = broader, !outer.policy.pins.isEmpty {
                    add(.noPins, .info, pattern: pattern, line: line,
                        "\(pattern) has no pins: pinning is disabled for these hosts although \(outer.pattern) pins the hosts around them",
                        hint: "if this exclusion is not intended, add pins")
                } else {
                    add(.noPins, pattern: pattern, line: line,
                        "\(pattern) has no pins: clients only check system trust (pin_set_empty)",
                        hint: "add pins, or remove the rule if pinning is not intended")
                }
                return
            }
            lintBackups(p, pattern: pattern, line: line)
            lintIssuerPools(p, pattern: pattern, line: line)
            for pin in p.pins where pin.type == .ca || pin.scope == .root || pin.scope == .intermediate {
                let what = pin.type == .ca ? "type ca" : "scope \(pin.scope.rawValue)"
                add(.caPin, pattern: pattern, line: pin.line ?? line,
                    "pin \(pin.hash) (\(what)) pins a CA key: every certificate that CA issues, for anyone, matches it, and the pin breaks when the CA moves issuance to another intermediate or root (RFC 7469 §4.3, Appendix B)",
                    hint: "pin your own leaf keys (type spki, scope leaf or any) with an offline backup key, or pin CAs of two different operators")
            }
        }

        mutating func lintBackups(_ p: HostPolicy, pattern: String, line: Int?) {
            let groups: [(String?, [Pin])] = p.matchMode == .eachGroup
                ? Dictionary(grouping: p.pins, by: { $0.group ?? "" }).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                : [(nil, p.pins)]
            for (group, pins) in groups where Set(pins.map(PinKey.init)).count < 2 {
                let which = group.map { " in group \($0)" } ?? ""
                add(.noBackupPin, pattern: pattern, line: pins.first?.line ?? line,
                    "\(pattern) has a single distinct pin\(which): when that key or CA changes, every client rejects the server (RFC 7469 §4.3 and TrustKit require a backup pin)",
                    hint: "add a backup pin for a key that is not deployed yet (kept offline, or issued by another CA)")
            }
            let distinct = Set(p.pins.map(PinKey.init)).count
            if distinct >= 2 && !p.pins.contains(where: { $0.role == .backup }) {
                add(.noBackupRole, pattern: pattern, line: line,
                    "\(pattern) has \(distinct) pins but none is marked role: backup, so reserve-pin and backup-in-use reporting cannot tell the reserve apart",
                    hint: "mark the pin(s) held in reserve with role: backup")
            }
            var firstByKey: [PinKey: Pin] = [:]
            for pin in p.pins {
                let key = PinKey(pin)
                guard let first = firstByKey[key] else { firstByKey[key] = pin; continue }
                let at = first.line.map { " on line \($0)" } ?? ""
                if first.role != pin.role {
                    add(.backupSameAsPrimary, pattern: pattern, line: pin.line ?? line,
                        "backup pin \(pin.hash) hashes the same key as the primary pin\(at), so it is no reserve",
                        hint: "replace the backup with the hash of a different key")
                } else {
                    add(.duplicatePin, pattern: pattern, line: pin.line ?? line,
                        "pin \(pin.hash) pins the same key as the pin\(at)",
                        hint: "remove the duplicate, or make it a different key")
                }
            }
        }

        mutating func lintExpiry(_ expires: Date, pattern: String, line: Int?) {
            let when = RFC3339.format(expires)
            if expires <= now {
                add(.pinSetExpired, pattern: pattern, line: line,
                    "the pin-set of \(pattern) expired at \(when): clients no longer enforce these pins (pin_set_expired)",
                    hint: "ship pins with a later expires, or remove expires")
            } else if expires.timeIntervalSince(now) <= Double(window) * 86_400 {
                let days = Int(saturating: (expires.timeIntervalSince(now) / 86_400).rounded(.down))
                add(.pinSetExpiring, pattern: pattern, line: line,
                    "the pin-set of \(pattern) expires at \(when), in \(days) day(s); after that clients only check system trust",
                    hint: "ship an app update with renewed pins and a later expires before then")
            }
        }

        mutating func lintProduction(_ p: HostPolicy, pattern: String, line: Int?) {
            if p.failStrategy == .permissive {
                add(.prodPermissive, pattern: pattern, line: line,
                    "\(pattern) in \(environment) is permissive: a pin mismatch or a system-trust failure is accepted",
                    hint: "use fail_strategy: strict in production")
            }
            if p.allowSystemTrustFallback {
                add(.prodSystemTrustFallback, pattern: pattern, line: line,
                    "\(pattern) in \(environment) allows system-trust fallback: any publicly trusted certificate is accepted when no pin matches",
                    hint: "set allow_system_trust_fallback: false in production")
            }
            if !p.requireSystemTrust {
                add(.prodNoSystemTrust, pattern: pattern, line: line,
                    "\(pattern) in \(environment) does not require system trust: expired, revoked or misnamed certificates pass when a pin matches",
                    hint: "set require_system_trust: true in production")
            }
        }
    }
}

/// A pinned key: `spki` and `ca` pins both hash an SPKI, so the same hash is the same key.
struct PinKey: Hashable {
    let certificate: Bool
    let hash: String

    init(_ pin: Pin) {
        certificate = pin.type == .certificate
        hash = pin.hash
    }
}
