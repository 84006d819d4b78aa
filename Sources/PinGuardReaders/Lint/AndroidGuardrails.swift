import Foundation
import PinGuardCore

/// Settings of an Android network security config that undo what pinning protects, in the configuration
/// release builds use (everything outside `<debug-overrides>`).
///
/// Android resolves each setting per domain: a `domain-config` inherits `cleartextTrafficPermitted`, the pin-set
/// and the trust anchors of the `domain-config` around it, and finally of `<base-config>`. A finding is raised
/// to an error when it reaches a pinned domain.
enum AndroidGuardrails {
    /// A `<certificates>` trust anchor, read as the importer reads it.
    typealias Anchor = AndroidNSCImporter.Anchor

    /// Settings in force for one `domain-config`.
    struct Scope {
        var domains: [String]
        var pinned: Bool
        /// Line of the element whose `cleartextTrafficPermitted="true"` is in force.
        var cleartextLine: Int?
        /// Index + 1 in the anchor sets of the `<trust-anchors>` in force (0: the platform default, which trusts
        /// system CAs only). Not a line: a minified file has every element on line 1.
        var anchorSet: Int
    }

    /// Pinned domain names a setting reaches: the first few for messages and how many there are, so that a
    /// setting shared by many domains costs no more than their count.
    struct Reached {
        var names: [String] = []
        var count = 0

        mutating func add(_ domains: [String]) {
            for d in domains where names.count < 3 { names.append(d) }
            count += domains.count
        }

        var list: String {
            names.joined(separator: ", ") + (count > names.count ? " and \(count - names.count) more" : "")
        }
    }

    /// Findings for the release configuration of `root`; linear in the number of elements.
    static func check(_ root: XMLElementNode, file: String, policySet: String) -> [LintFinding] {
        var out: [LintFinding] = []
        func add(_ rule: LintRule, _ severity: FindingSeverity, pattern: String?, line: Int, _ message: String, hint: String) {
            out.append(LintFinding(rule: rule, severity: severity, policySet: policySet, environment: nil, pattern: pattern,
                                   file: file, line: line, message: message, hint: hint))
        }
        var anchorSets: [[Anchor]] = []
        var base = Scope(domains: [], pinned: false, cleartextLine: nil, anchorSet: 0)
        if let config = root.children(named: "base-config").first {
            if config.attributes["cleartextTrafficPermitted"] == "true" { base.cleartextLine = config.line }
            if let anchors = ownAnchors(config) {
                anchorSets.append(anchors)
                base.anchorSet = anchorSets.count
            }
        }
        var scopes: [Scope] = []
        for config in root.children(named: "domain-config") {
            collect(config, parent: base, anchorSets: &anchorSets, into: &scopes)
        }
        var byCleartext: [Int: Reached] = [:]
        var byAnchors: [Int: Reached] = [:]
        for scope in scopes where scope.pinned {
            if let line = scope.cleartextLine { byCleartext[line, default: Reached()].add(scope.domains) }
            byAnchors[scope.anchorSet, default: Reached()].add(scope.domains)
        }

        var cleartextLines = Set(scopes.compactMap(\.cleartextLine))
        if let line = base.cleartextLine { cleartextLines.insert(line) }
        for line in cleartextLines.sorted() {
            let what = line == base.cleartextLine ? "every domain without its own setting" : "these domains"
            if let hit = byCleartext[line] {
                add(.androidCleartextTraffic, .error, pattern: hit.names.first, line: line,
                    "cleartextTrafficPermitted=\"true\" applies to pinned \(hit.list): the pins protect HTTPS only, so an attacker who can intercept serves the http:// path",
                    hint: "set cleartextTrafficPermitted=\"false\" for pinned domains and serve them over HTTPS")
            } else {
                add(.androidCleartextTraffic, .warning, pattern: nil, line: line,
                    "cleartextTrafficPermitted=\"true\": release builds may reach \(what) over plain HTTP, which no pin or certificate check protects",
                    hint: "set cleartextTrafficPermitted=\"false\" (the default from Android 9) and serve over HTTPS")
            }
        }

        for (index, anchors) in anchorSets.enumerated() {
            let hit = byAnchors[index + 1]
            for a in anchors {
                if a.source == "user" {
                    let pinNote = hit.map { a.overridePins ? "; with overridePins it also bypasses the pins of \($0.list)"
                                                           : "; the pins of \($0.list) still apply there" } ?? ""
                    add(.androidUserCA, .error, pattern: hit?.names.first, line: a.line,
                        "<certificates src=\"user\"/> outside <debug-overrides>: release builds trust CAs the user or a device-management profile installs, so such a CA can intercept the app's traffic\(pinNote)",
                        hint: "move <certificates src=\"user\"/> into <debug-overrides>")
                }
                guard a.overridePins else { continue }
                if let hit {
                    add(.androidOverridePins, .error, pattern: hit.names.first, line: a.line,
                        "overridePins=\"true\" on the \"\(a.source)\" anchor: a chain to any \(a.source == "system" ? "system-trusted" : a.source) CA is accepted for \(hit.list) without a pin match, so the pins are not enforced",
                        hint: "remove overridePins=\"true\" outside <debug-overrides>")
                } else {
                    add(.androidOverridePins, .warning, pattern: nil, line: a.line,
                        "overridePins=\"true\" on the \"\(a.source)\" anchor: chains to it skip pin checks; no pinned domain uses it now, but a pin-set added later would not be enforced",
                        hint: "remove overridePins=\"true\" outside <debug-overrides>")
                }
            }
        }
        return out
    }

    /// The `<certificates>` of an element's `<trust-anchors>`, or nil when it has none (it inherits).
    static func ownAnchors(_ e: XMLElementNode) -> [Anchor]? {
        guard let t = e.children(named: "trust-anchors").first else { return nil }
        return AndroidNSCImporter.anchors(t, defaultOverride: false)
    }

    /// Records the scope of `config` and, recursively, of its nested `domain-config`s (depth is bounded by the parser).
    static func collect(_ config: XMLElementNode, parent: Scope, anchorSets: inout [[Anchor]], into scopes: inout [Scope]) {
        var scope = parent
        scope.domains = config.children(named: "domain").map { HostPattern.normalize($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .filter { !$0.isEmpty }
        if let pinSet = config.children(named: "pin-set").first { scope.pinned = !pinSet.children(named: "pin").isEmpty }
        switch config.attributes["cleartextTrafficPermitted"] {
        case "true": scope.cleartextLine = config.line
        case "false": scope.cleartextLine = nil
        default: break
        }
        if let anchors = ownAnchors(config) {
            anchorSets.append(anchors)
            scope.anchorSet = anchorSets.count
        }
        scopes.append(scope)
        for nested in config.children(named: "domain-config") {
            collect(nested, parent: scope, anchorSets: &anchorSets, into: &scopes)
        }
    }
}
