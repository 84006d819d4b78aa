import PinGuardCore

/// Android configurations pinned through trust anchors alone (bundled `@raw/` CAs: CA pinning), and what a
/// configuration that pins nothing does configure instead (`<base-config>`, domains without a pin-set,
/// `<debug-overrides>`, or nothing at all).
extension AndroidNSCImporter {
    /// The elements of a file that hold settings but no pins, for describing a file that pins nothing.
    struct Settings {
        /// `<network-security-config>`.
        let root: XMLElementNode
        /// `<base-config>`, when there is one.
        var base: XMLElementNode?
        /// `<debug-overrides>`, when there is one.
        var debug: XMLElementNode?
        /// The trust anchors of `<base-config>`.
        var baseAnchors: [Anchor] = []
        /// Every `<domain>` with the settings in force for it.
        var domains: [Candidate] = []
    }

    /// A domain whose trust anchors are only bundled certificates: the app accepts chains to those CAs alone,
    /// which is CA pinning. Imported as `ca` pins on each certificate's SPKI; a resource the caller could not
    /// find or read is named, and then nothing is imported for the domain.
    static func caPinning(_ c: Candidate, resources: [String: ImportResource], origin: [String], draft: inout ImportDraft) {
        var pins: [Pin] = []
        var unread: [String] = []
        for a in c.anchors {
            guard case .spki(let hashes)? = resources[a.source] else {
                noteUnread(a, of: "\(c.pattern)", resources: resources, draft: &draft)
                unread.append(a.source)
                continue
            }
            for h in hashes {
                draft.append(Pin(type: .ca, hash: h, role: .primary, scope: .any, line: a.line), to: &pins)
            }
        }
        guard unread.isEmpty, !pins.isEmpty else {
            draft.note(.warning, line: c.line,
                       "\(c.pattern) trusts only bundled CAs (CA pinning); not imported because \(unread.joined(separator: ", ")) could not be read")
            return
        }
        let sources = c.anchors.map(\.source).joined(separator: ", ")
        draft.note(.info, line: c.anchorsLine ?? c.line,
                   "\(c.pattern) trusts only \(sources) (CA pinning): imported as ca pins; pinguard verifies chains against its own store, so put a private CA in trust.ca_file")
        let policy = HostPolicy(pins: pins, failStrategy: .strict, requireSystemTrust: true, allowSystemTrustFallback: false)
        draft.add(ImportedRule(pattern: c.pattern, policy: policy, line: c.line,
                               origin: origin + ["CA pinning: trust anchors \(sources) only (no pin-set)"]))
    }

    /// Names the bundled trust anchor `a` of `owner` that the caller did not find or could not read, at its line;
    /// the first such anchor is also why nothing was imported, if nothing is.
    static func noteUnread(_ a: Anchor, of owner: String, resources: [String: ImportResource], draft: inout ImportDraft) {
        // The finding names the anchor; the reason reads on from "the CA … is pinned to".
        let finding: String, reason: String
        switch resources[a.source] {
        case .missing(let whereLooked)?:
            (finding, reason) = ("not found: \(whereLooked)", "was not found: \(whereLooked)")
        case .unreadable(let why)?:
            (finding, reason) = ("is not a certificate: \(why)", "is not a certificate: \(why)")
        default:
            let how = "give the app's res/ directory with --res DIR"
            (finding, reason) = ("was not resolved: \(how)", "was not resolved: \(how)")
        }
        draft.note(.error, line: a.line, "\(a.source) (trust anchor of \(owner)) \(finding)")
        if draft.nothingImportedBecause == nil {
            draft.nothingImportedBecause = "\(a.source) (line \(a.line)), the CA \(owner) is pinned to, \(reason)"
        }
    }

    /// Whether `anchors` are bundled certificates only (no `system`, no `user`): CA pinning.
    static func bundledOnly(_ anchors: [Anchor]) -> Bool {
        !anchors.isEmpty && anchors.allSatisfy { $0.source != "system" && $0.source != "user" }
    }

    /// Says what a file from which no rule was imported configures instead of pins: one note per element, and
    /// the list the closing "pins nothing" finding names. A `<base-config>` trusting bundled CAs only pins every
    /// domain to them, which no rule without a domain expresses: a warning, so the file is not said to pin nothing.
    static func describe(_ settings: Settings, resources: [String: ImportResource], draft: inout ImportDraft) {
        if settings.root.children.isEmpty {
            draft.note(.info, line: settings.root.line,
                       "<network-security-config> is empty: every domain gets the platform defaults (system trust anchors, no pins)")
            draft.configures.append("nothing (an empty <network-security-config>)")
        }
        if let base = settings.base {
            describeBase(base, anchors: settings.baseAnchors, resources: resources, draft: &draft)
        }
        for c in settings.domains {
            draft.configures.append("\(c.pattern) without a pin-set (line \(c.line))")
        }
        if let debug = settings.debug {
            draft.configures.append("<debug-overrides> (line \(debug.line), debuggable builds only)")
        }
    }

    /// The note on a `<base-config>` of a file that pins nothing: its cleartext setting and trust anchors.
    static func describeBase(_ base: XMLElementNode, anchors: [Anchor], resources: [String: ImportResource], draft: inout ImportDraft) {
        guard !bundledOnly(anchors) else {
            for a in anchors where resources[a.source].map({ if case .spki = $0 { return false } else { return true } }) ?? true {
                noteUnread(a, of: "every domain of <base-config>", resources: resources, draft: &draft)
            }
            let sources = anchors.map(\.source).joined(separator: ", ")
            draft.note(.warning, line: base.line,
                       "<base-config> trusts only \(sources): every domain without a <domain-config> of its own is CA-pinned to it, "
                           + "and a pinguard rule needs a domain; not imported (add a <domain-config> for each host the app connects to)")
            if draft.nothingImportedBecause == nil {
                draft.nothingImportedBecause = "<base-config> CA-pins every domain to \(sources), and a pinguard rule needs a domain"
            }
            return
        }
        var settings: [String] = []
        if let cleartext = base.attributes["cleartextTrafficPermitted"] {
            settings.append("cleartextTrafficPermitted=\(EchoedInput.quoted(cleartext))")
        }
        settings.append("trusts " + (anchors.isEmpty ? "the platform's anchors" : anchors.map(\.source).joined(separator: ", ")))
        draft.note(.info, line: base.line,
                   "<base-config> sets the defaults of every domain (\(settings.joined(separator: "; "))); it holds no pins")
        draft.configures.append("<base-config> (line \(base.line))")
    }
}
