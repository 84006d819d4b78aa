import Foundation

/// Settings of an Android network security config that undo what pinning protects, in the configuration
/// release builds use (everything outside `<debug-overrides>`).
///
/// Android resolves each setting per domain: a `domain-config` inherits `cleartextTrafficPermitted`, the pin-set
/// and the trust anchors of the `domain-config` around it, and finally of `<base-config>`. A finding is raised
/// to an error when it reaches a pinned domain.
enum AndroidGuardrails {
    /// A `<certificates>` trust anchor.
    struct Anchor {
        var source: String
        var overridePins: Bool
        var line: Int
    }

    /// Settings in force for one `domain-config`.
    struct Scope {
        var domains: [String]
        var pinned: Bool
        /// Line of the element whose `cleartextTrafficPermitted="true"` is in force.
        var cleartextLine: Int?
        var anchors: [Anchor]
    }

    static func check(_ root: XMLElementNode, file: String, policySet: String) -> [LintFinding] {
        var out: [LintFinding] = []
        func add(_ rule: LintRule, _ severity: FindingSeverity, pattern: String?, line: Int, _ message: String, hint: String) {
            out.append(LintFinding(rule: rule, severity: severity, policySet: policySet, environment: nil, pattern: pattern,
                                   file: file, line: line, message: message, hint: hint))
        }
        let base = root.children(named: "base-config").first
        var baseAnchors: [Anchor] = []
        var baseCleartext: Int?
        if let base {
            baseAnchors = anchors(base)
            if base.attributes["cleartextTrafficPermitted"] == "true" { baseCleartext = base.line }
        }
        var scopes: [Scope] = []
        for config in root.children(named: "domain-config") {
            collect(config, parent: Scope(domains: [], pinned: false, cleartextLine: baseCleartext, anchors: baseAnchors),
                    into: &scopes)
        }
        func pinnedDomains(_ matching: (Scope) -> Bool) -> [String] {
            scopes.filter { $0.pinned && matching($0) }.flatMap(\.domains)
        }
        func list(_ domains: [String]) -> String {
            domains.count <= 3 ? domains.joined(separator: ", ") : domains.prefix(3).joined(separator: ", ") + " and \(domains.count - 3) more"
        }

        var cleartextLines = Set(scopes.compactMap(\.cleartextLine))
        if let baseCleartext { cleartextLines.insert(baseCleartext) }
        for line in cleartextLines.sorted() {
            let hit = pinnedDomains { $0.cleartextLine == line }
            let what = line == baseCleartext ? "every domain without its own setting" : "these domains"
            if hit.isEmpty {
                add(.androidCleartextTraffic, .warning, pattern: nil, line: line,
                    "cleartextTrafficPermitted=\"true\": release builds may reach \(what) over plain HTTP, which no pin or certificate check protects",
                    hint: "set cleartextTrafficPermitted=\"false\" (the default from Android 9) and serve over HTTPS")
            } else {
                add(.androidCleartextTraffic, .error, pattern: hit.first, line: line,
                    "cleartextTrafficPermitted=\"true\" applies to pinned \(list(hit)): the pins protect HTTPS only, so an attacker who can intercept serves the http:// path",
                    hint: "set cleartextTrafficPermitted=\"false\" for pinned domains and serve them over HTTPS")
            }
        }

        var seenAnchors = Set<Int>()
        let allAnchors = (baseAnchors + scopes.flatMap(\.anchors)).filter { seenAnchors.insert($0.line).inserted }
        for a in allAnchors.sorted(by: { $0.line < $1.line }) {
            let hit = pinnedDomains { $0.anchors.contains { $0.line == a.line } }
            if a.source == "user" {
                let pinNote = hit.isEmpty ? "" : (a.overridePins ? "; with overridePins it also bypasses the pins of \(list(hit))"
                                                                  : "; the pins of \(list(hit)) still apply there")
                add(.androidUserCA, .error, pattern: hit.first, line: a.line,
                    "<certificates src=\"user\"/> outside <debug-overrides>: release builds trust CAs the user or a device-management profile installs, so such a CA can intercept the app's traffic\(pinNote)",
                    hint: "move <certificates src=\"user\"/> into <debug-overrides>")
            }
            if a.overridePins {
                if hit.isEmpty {
                    add(.androidOverridePins, .warning, pattern: nil, line: a.line,
                        "overridePins=\"true\" on the \"\(a.source)\" anchor: chains to it skip pin checks; no pinned domain uses it now, but a pin-set added later would not be enforced",
                        hint: "remove overridePins=\"true\" outside <debug-overrides>")
                } else {
                    add(.androidOverridePins, .error, pattern: hit.first, line: a.line,
                        "overridePins=\"true\" on the \"\(a.source)\" anchor: a chain to any \(a.source == "system" ? "system-trusted" : a.source) CA is accepted for \(list(hit)) without a pin match, so the pins are not enforced",
                        hint: "remove overridePins=\"true\" outside <debug-overrides>")
                }
            }
        }
        return out
    }

    /// The `<certificates>` of an element's `<trust-anchors>`, or nil when it has none (it inherits).
    static func ownAnchors(_ e: XMLElementNode) -> [Anchor]? {
        guard let t = e.children(named: "trust-anchors").first else { return nil }
        return t.children(named: "certificates").map {
            Anchor(source: $0.attributes["src"] ?? "", overridePins: $0.attributes["overridePins"] == "true", line: $0.line)
        }
    }

    static func anchors(_ e: XMLElementNode) -> [Anchor] {
        ownAnchors(e) ?? []
    }

    /// Records the scope of `config` and, recursively, of its nested `domain-config`s.
    static func collect(_ config: XMLElementNode, parent: Scope, into scopes: inout [Scope]) {
        var scope = parent
        scope.domains = config.children(named: "domain").map { HostPattern.normalize($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .filter { !$0.isEmpty }
        if let pinSet = config.children(named: "pin-set").first { scope.pinned = !pinSet.children(named: "pin").isEmpty }
        switch config.attributes["cleartextTrafficPermitted"] {
        case "true": scope.cleartextLine = config.line
        case "false": scope.cleartextLine = nil
        default: break
        }
        if let own = ownAnchors(config) { scope.anchors = own }
        scopes.append(scope)
        for nested in config.children(named: "domain-config") {
            collect(nested, parent: scope, into: &scopes)
        }
    }
}
