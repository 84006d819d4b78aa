import Foundation
import PinGuardCore

/// Android Network Security Configuration (`network_security_config.xml`).
///
/// Android verifies the chain against the config's trust anchors, then requires one `<pin>` to match the
/// SPKI SHA-256 of any certificate of the verified chain, unless the pin-set has expired or the chain's anchor
/// has `overridePins="true"`. Nested `domain-config`s inherit the pin-set and trust anchors of their parents.
/// Imported as `spki` pins scope `any`, `require_system_trust: true`; `includeSubdomains="true"` gives
/// `**.domain`; `expiration` gives `expires` at 00:00 UTC of that day (Android stops enforcing when it begins).
enum AndroidNSCImporter {
    /// A `<certificates>` trust anchor.
    struct Anchor {
        var source: String
        var overridePins: Bool
        var line: Int
    }

    /// A parsed `<pin-set>`.
    struct PinSetInfo {
        var pins: [Pin]
        var expires: Date?
        var expiration: String?
        var line: Int
    }

    /// One `<domain>` with the settings in force for it.
    struct Candidate {
        var pattern: HostPattern
        var line: Int
        var pinSet: PinSetInfo?
        var inherited: Bool
        var anchors: [Anchor]
        var anchorsLine: Int?
        /// Line of a TrustKit-Android `<trustkit-config enforcePinning="false">` in force (report only).
        var reportOnlyLine: Int?
    }

    static func run(_ bytes: [UInt8], resources: [String: ImportResource] = [:], targetSDK: Int? = nil,
                    into draft: inout ImportDraft) throws(ImportError) {
        let root = try XMLTree.parse(bytes, file: draft.file)
        guard root.name == "network-security-config" else {
            throw ImportError(file: draft.file, line: root.line,
                              message: "the document element is <\(root.name)>, expected <network-security-config>")
        }
        var baseAnchors: [Anchor]?
        var baseAnchorsLine: Int?
        var settings = Settings(root: root)
        var candidates: [Candidate] = []
        var seenDomains: [String: Int] = [:]
        var seenBase = false
        var seenDebug = false
        for child in root.children {
            switch child.name {
            case "base-config":
                if seenBase {
                    draft.note(.error, line: child.line, "only one <base-config> is allowed (Android rejects the file); ignored")
                    continue
                }
                seenBase = true
                settings.base = child
                for e in child.children {
                    switch e.name {
                    case "trust-anchors":
                        if baseAnchors != nil {
                            draft.note(.error, line: e.line, "multiple <trust-anchors> (Android rejects the file); ignored")
                            continue
                        }
                        baseAnchors = anchors(e, defaultOverride: false)
                        baseAnchorsLine = e.line
                    case "pin-set":
                        draft.note(.error, line: e.line,
                                   "<pin-set> is not allowed in <base-config> (Android rejects the file); not imported")
                    case "domain", "domain-config":
                        draft.note(.error, line: e.line, "<\(e.name)> is not allowed in <base-config> (Android rejects the file)")
                    default:
                        break
                    }
                }
            case "domain-config":
                domainConfig(child, parentPins: nil, parentAnchors: nil, parentReportOnly: nil, seen: &seenDomains,
                             into: &candidates, draft: &draft)
            case "debug-overrides":
                if seenDebug { draft.note(.error, line: child.line, "only one <debug-overrides> is allowed (Android rejects the file)") }
                seenDebug = true
                settings.debug = child
                debugOverrides(child, draft: &draft)
            default:
                draft.note(.info, line: child.line, "<\(child.name)> ignored (Android ignores unknown elements)")
            }
        }
        let platform = [Anchor(source: "system", overridePins: false, line: root.line)]
        let resolved = candidates.map { c -> Candidate in
            var c = c
            if c.anchorsLine == nil {
                c.anchors = baseAnchors ?? platform
                c.anchorsLine = baseAnchors == nil ? nil : baseAnchorsLine
            }
            return c
        }
        let pinnedPatterns = resolved.filter { !($0.pinSet?.pins.isEmpty ?? true) }.map(\.pattern)
        for c in resolved {
            emit(c, pinnedPatterns: pinnedPatterns, resources: resources, draft: &draft)
        }
        AndroidCertificateTransparency.apply(root, targetSDK: targetSDK, draft: &draft)
        settings.baseAnchors = baseAnchors ?? []
        settings.domains = resolved
        if draft.rules.isEmpty { describe(settings, resources: resources, draft: &draft) }
    }

    static func anchors(_ e: XMLElementNode, defaultOverride: Bool) -> [Anchor] {
        e.children(named: "certificates").map { cert in
            Anchor(source: cert.attributes["src"] ?? "",
                   overridePins: cert.attributes["overridePins"].map { $0 == "true" } ?? defaultOverride,
                   line: cert.line)
        }
    }

    static func debugOverrides(_ e: XMLElementNode, draft: inout ImportDraft) {
        let extra = e.children(named: "trust-anchors").flatMap { anchors($0, defaultOverride: true) }
        let detail = extra.isEmpty ? "" : " (trusts \(extra.map(\.source).joined(separator: ", ")); overridePins defaults to true here)"
        draft.noteSetting(.warning, line: e.line,
                          "<debug-overrides> applies to debuggable builds only\(detail); not imported as enforcement")
    }

    static func domainConfig(_ e: XMLElementNode, parentPins: (PinSetInfo, Bool)?, parentAnchors: ([Anchor], Int)?,
                             parentReportOnly: Int?, seen: inout [String: Int], into candidates: inout [Candidate],
                             draft: inout ImportDraft) {
        var pinSet: PinSetInfo?
        var reportOnly = parentReportOnly
        var ownAnchors: ([Anchor], Int)?
        var domains: [(HostPattern, Int)] = []
        for c in e.children {
            switch c.name {
            case "domain":
                let name = c.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                if name.isEmpty {
                    draft.note(.error, line: c.line, "<domain> has no name (Android rejects the file)")
                    continue
                }
                if let why = neverMatched(name) {
                    // Android reads any text as a domain and compares it with the host name as written: such a
                    // domain pins nothing, which is an answer about the app, not content it refuses.
                    draft.noteSetting(.warning, line: c.line,
                                      "<domain>\(EchoedInput.bare(name, limit: 200))</domain> is never matched: \(why), so its pins are never enforced; not imported")
                    draft.configures.append("\(EchoedInput.quoted(name)) (line \(c.line), never matched)")
                    continue
                }
                if let first = seen[name] {
                    draft.note(.error, line: c.line,
                               "\(name) was already specified on line \(first) (Android rejects duplicate domains); not imported")
                    continue
                }
                seen[name] = c.line
                let sub = c.attributes["includeSubdomains"] == "true"
                if let p = draft.pattern(sub ? "**." + name : name, line: c.line) { domains.append((p, c.line)) }
            case "pin-set":
                if pinSet != nil {
                    draft.note(.error, line: c.line, "multiple <pin-set> elements (Android rejects the file); ignored")
                    continue
                }
                pinSet = parsePinSet(c, draft: &draft)
            case "trust-anchors":
                if ownAnchors != nil {
                    draft.note(.error, line: c.line, "multiple <trust-anchors> (Android rejects the file); ignored")
                    continue
                }
                ownAnchors = (anchors(c, defaultOverride: false), c.line)
            case "trustkit-config":
                // TrustKit-Android: enforcePinning="false" reports mismatches without blocking (default true).
                if c.attributes["enforcePinning"] == "false" { reportOnly = c.line }
                if c.attributes["enforcePinning"] == "true" { reportOnly = nil }
            default:
                break
            }
        }
        if domains.isEmpty && e.children(named: "domain").isEmpty {
            draft.note(.error, line: e.line, "<domain-config> without <domain> (Android rejects the file)")
        }
        let effectivePins: (PinSetInfo, Bool)? = pinSet.map { ($0, false) } ?? parentPins.map { ($0.0, true) }
        let effectiveAnchors = ownAnchors ?? parentAnchors
        for (pattern, line) in domains {
            candidates.append(Candidate(pattern: pattern, line: line, pinSet: effectivePins?.0,
                                        inherited: effectivePins?.1 ?? false,
                                        anchors: effectiveAnchors?.0 ?? [], anchorsLine: effectiveAnchors?.1,
                                        reportOnlyLine: reportOnly))
        }
        for nested in e.children(named: "domain-config") {
            domainConfig(nested, parentPins: effectivePins, parentAnchors: effectiveAnchors, parentReportOnly: reportOnly, seen: &seen,
                         into: &candidates, draft: &draft)
        }
    }

    /// Why Android never matches the `<domain>` text `name` with a host name, or nil when it can: Android takes the
    /// text as written (no wildcard, no URL parsing) and compares it with the connection's host name.
    static func neverMatched(_ name: String) -> String? {
        if name.contains(where: { "/:?#@".contains($0) }) {
            return "Android compares the host name only, so a scheme, path, port or trailing \"/\" never equals one"
        }
        if name.contains("*") {
            return "Android has no wildcards and compares \"*\" as written (use includeSubdomains=\"true\" on the parent domain)"
        }
        do { _ = try HostPattern.parse(name) } catch {
            return "it is not a host name (\(error.message))"
        }
        return nil
    }

    static func parsePinSet(_ e: XMLElementNode, draft: inout ImportDraft) -> PinSetInfo {
        var info = PinSetInfo(pins: [], expires: nil, expiration: nil, line: e.line)
        if let exp = e.attributes["expiration"] {
            if let d = ImportSupport.startOfDay(exp) {
                info.expires = d
                info.expiration = exp
            } else {
                draft.note(.error, line: e.line,
                           "expiration \"\(exp)\" is not a yyyy-MM-dd date (Android rejects the file); imported without expires")
            }
        }
        for pin in e.children(named: "pin") {
            let digest = pin.attributes["digest"] ?? ""
            guard digest.uppercased() == "SHA-256" else {
                draft.note(.error, line: pin.line,
                           "unsupported pin digest \"\(digest)\" (Android supports SHA-256 only and rejects the file); pin not imported")
                continue
            }
            let text = pin.text.trimmingCharacters(in: .whitespacesAndNewlines)
            var hash = ImportSupport.strictSHA256(text)
            if hash == nil, let bytes = ImportSupport.lenientBase64(text), bytes.count == 32,
               text.allSatisfy({ $0 != "-" && $0 != "_" }) {
                hash = Base64.encode(bytes)
                draft.note(.info, line: pin.line, "non-canonical base64 accepted as Android does: \(hash!)")
            }
            guard let h = hash else {
                draft.note(.error, line: pin.line,
                           "\"\(text)\" is not base64 of a 32-byte SHA-256 digest (Android rejects the file); pin not imported")
                continue
            }
            draft.append(Pin(type: .spki, hash: h, role: .primary, scope: .any, line: pin.line), to: &info.pins)
        }
        return info
    }

    static func emit(_ c: Candidate, pinnedPatterns: [HostPattern], resources: [String: ImportResource], draft: inout ImportDraft) {
        var origin = ["\(draft.position(c.line)) <domain> \(c.pattern)"]
        guard let set = c.pinSet, !set.pins.isEmpty else {
            let parents = pinnedPatterns.filter { $0 != c.pattern && c.pattern.isContained(in: $0) }
            if !c.anchors.isEmpty, c.anchors.allSatisfy({ $0.source != "system" && $0.source != "user" }) {
                caPinning(c, resources: resources, origin: origin, draft: &draft)
                return
            }
            guard let parent = parents.max(by: { $1.outranks($0) }) else {
                let trusts = c.anchors.map(\.source).joined(separator: ", ")
                draft.note(.info, line: c.line, "the app pins nothing for \(c.pattern) (no pin-set in force; it trusts \(trusts)); nothing to import for it")
                return
            }
            origin.append("no pins in force: pinning is disabled here although \(parent) is pinned (the most specific domain-config wins)")
            draft.add(ImportedRule(pattern: c.pattern, policy: HostPolicy(pins: [], requireSystemTrust: true),
                                   line: c.line, origin: origin))
            return
        }
        origin.append("pins: <pin-set> on line \(set.line)\(c.inherited ? " (inherited from an enclosing domain-config)" : "")")
        var fallback = false
        for a in c.anchors {
            if a.source == "system" && a.overridePins {
                fallback = true
                draft.note(.warning, line: a.line,
                           "overridePins=\"true\" on system anchors: pins are not enforced for \(c.pattern) on chains the system store trusts; imported as allow_system_trust_fallback: true")
            } else if a.source != "system" {
                let bypass = a.overridePins ? "; chains anchored there skip the pin check (not modelled)" : ""
                draft.note(.warning, line: a.line,
                           "\(c.pattern) trusts anchors from \"\(a.source)\"\(bypass); pinguard checks system trust against its own store (trust.ca_file)")
            }
        }
        if fallback { origin.append("overridePins on system anchors: a pin mismatch is accepted on system-trusted chains") }
        if let line = c.reportOnlyLine {
            fallback = true
            draft.note(.warning, line: line,
                       "TrustKit-Android enforcePinning=\"false\": report only, pins are not enforced for \(c.pattern); imported as allow_system_trust_fallback: true (a chain failing system trust is still rejected)")
            origin.append("enforcePinning false (TrustKit-Android): a pin mismatch is reported and accepted on system-trusted chains")
        }
        if let exp = set.expiration, set.expires != nil {
            origin.append("expiration \(exp): Android stops enforcing these pins when that day begins (device time zone; UTC here)")
        }
        let policy = HostPolicy(pins: set.pins, failStrategy: .strict, requireSystemTrust: true,
                                allowSystemTrustFallback: fallback, expires: set.expires)
        draft.add(ImportedRule(pattern: c.pattern, policy: policy, line: c.line, origin: origin))
    }
}
