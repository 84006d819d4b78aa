import Foundation
import PinGuardCore

/// Apple App Transport Security `NSAppTransportSecurity.NSPinnedDomains` from an Info.plist (XML or binary).
///
/// ATS evaluates system trust first, then the pinned identities: `NSPinnedLeafIdentities` must match the
/// leaf's SPKI, `NSPinnedCAIdentities` an intermediate or root SPKI; when both lists are given, ATS requires
/// a match in each. Imported as `spki` pins scope `leaf` group `leaf`, `ca` pins group `ca`, and
/// `match: each_group` when both lists are present.
enum NSPinnedDomainsImporter {
    static let identityKey = "SPKI-SHA256-BASE64"

    static func run(_ bytes: [UInt8], into draft: inout ImportDraft) throws(ImportError) {
        let (root, syntax) = try PropertyListDocument.parse(bytes, file: draft.file)
        guard root.entries != nil else {
            throw ImportError(file: draft.file, line: root.line, message: "expected a dictionary at the top of the \(syntax.rawValue), found \(root.kind)")
        }
        draft.version = root["CFBundleShortVersionString"]?.string
        var base = "NSAppTransportSecurity"
        var container = root["NSAppTransportSecurity"]
        if container == nil, root["NSPinnedDomains"] != nil {
            container = root
            base = ""
        }
        let domainsPath = ImportSupport.keyPath(base, "NSPinnedDomains")
        guard let ats = container, let domains = ats.entry("NSPinnedDomains") else {
            throw ImportError(file: draft.file, line: root.line, message: "no \(domainsPath) in this \(syntax.rawValue)")
        }
        guard let entries = domains.value.entries else {
            throw ImportError(file: draft.file, line: domains.keyLine,
                              message: "\(domainsPath) must be a dictionary, found \(domains.value.kind)")
        }
        for entry in entries {
            domain(entry, path: ImportSupport.keyPath(domainsPath, entry.key), draft: &draft)
        }
    }

    static func domain(_ entry: PlistNode.Entry, path: String, draft: inout ImportDraft) {
        let line = entry.keyLine ?? entry.value.line
        guard let settings = entry.value.entries else {
            draft.note(.error, line: line, keyPath: path, "domain settings must be a dictionary, found \(entry.value.kind); not imported")
            return
        }
        var includeSubdomains = false
        var leaf: [Pin] = []
        var ca: [Pin] = []
        var lists: [String] = []
        for s in settings {
            let sPath = ImportSupport.keyPath(path, s.key)
            let sLine = s.keyLine ?? s.value.line
            switch s.key {
            case "NSIncludesSubdomains":
                guard let b = s.value.bool else {
                    draft.note(.error, line: sLine, keyPath: sPath, "expected a boolean, found \(s.value.kind); treated as false")
                    continue
                }
                includeSubdomains = b
            case "NSPinnedLeafIdentities":
                lists.append(s.key)
                leaf = identities(s.value, path: sPath, line: sLine, leaf: true, draft: &draft)
            case "NSPinnedCAIdentities":
                lists.append(s.key)
                ca = identities(s.value, path: sPath, line: sLine, leaf: false, draft: &draft)
            default:
                draft.note(.warning, line: sLine, keyPath: sPath, "unknown NSPinnedDomains setting ignored")
            }
        }
        if lists.isEmpty {
            draft.note(.warning, line: line, keyPath: path,
                       "neither NSPinnedLeafIdentities nor NSPinnedCAIdentities: ATS does not pin this domain; not imported")
            return
        }
        if leaf.isEmpty && ca.isEmpty {
            draft.note(.error, line: line, keyPath: path, "no usable identity in \(lists.joined(separator: " or ")); not imported")
            return
        }
        for (name, pins) in [("NSPinnedLeafIdentities", leaf), ("NSPinnedCAIdentities", ca)]
        where lists.contains(name) && pins.isEmpty {
            draft.note(.error, line: line, keyPath: path,
                       "\(name) has no usable identity; imported without it, so the result may accept chains ATS rejects")
        }
        let host = HostPattern.normalize(entry.key)
        guard let pattern = draft.pattern(includeSubdomains ? "**." + host : host, line: line, keyPath: path) else { return }
        let both = !leaf.isEmpty && !ca.isEmpty
        var origin = ["\(draft.position(line)) \(path)"]
        if both { origin.append("both leaf and CA identities: ATS requires a match in each list") }
        let policy = HostPolicy(pins: leaf + ca, failStrategy: .strict, requireSystemTrust: true,
                                allowSystemTrustFallback: false, matchMode: both ? .eachGroup : .any)
        draft.add(ImportedRule(pattern: pattern, policy: policy, line: line, origin: origin), keyPath: path)
    }

    static func identities(_ node: PlistNode, path: String, line: Int?, leaf: Bool, draft: inout ImportDraft) -> [Pin] {
        guard let items = node.array else {
            draft.note(.error, line: line, keyPath: path, "expected an array of identity dictionaries, found \(node.kind)")
            return []
        }
        if items.isEmpty { draft.note(.warning, line: line, keyPath: path, "empty identity list") }
        var pins: [Pin] = []
        for (i, item) in items.enumerated() {
            let iPath = ImportSupport.keyPath(path, i)
            let iLine = item.line ?? line
            guard let fields = item.entries else {
                draft.note(.error, line: iLine, keyPath: iPath, "expected a dictionary with \(identityKey), found \(item.kind); pin not imported")
                continue
            }
            for f in fields where f.key != identityKey {
                draft.note(.warning, line: f.keyLine ?? iLine, keyPath: ImportSupport.keyPath(iPath, f.key),
                           "unknown identity key ignored (ATS supports \(identityKey) only)")
            }
            guard let value = item.entry(identityKey) else {
                draft.note(.error, line: iLine, keyPath: iPath, "missing \(identityKey); pin not imported")
                continue
            }
            let vLine = value.value.line ?? value.keyLine ?? iLine
            guard let text = value.value.string,
                  let hash = ImportSupport.foundationSHA256(text, line: vLine, keyPath: ImportSupport.keyPath(iPath, identityKey), draft: &draft) else {
                draft.note(.error, line: vLine, keyPath: ImportSupport.keyPath(iPath, identityKey),
                           "not base64 of a 32-byte SHA-256 digest; pin not imported")
                continue
            }
            let pin = leaf
                ? Pin(type: .spki, hash: hash, role: .primary, scope: .leaf, group: "leaf", line: vLine)
                : Pin(type: .ca, hash: hash, role: .primary, scope: .any, group: "ca", line: vLine)
            draft.append(pin, to: &pins, keyPath: iPath)
        }
        return pins
    }
}
