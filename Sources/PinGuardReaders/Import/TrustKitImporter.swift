import Foundation
import PinGuardCore

/// TrustKit (iOS/macOS) `TSKConfiguration`, from an Info.plist (XML or binary) or JSON.
///
/// TrustKit first lets the OS evaluate the chain (a chain failing system trust is always blocked), then
/// accepts when any `TSKPublicKeyHashes` entry equals the SPKI SHA-256 of any certificate in the chain.
/// Imported as `spki` pins with scope `any` and `require_system_trust: true`; `TSKIncludeSubdomains` gives
/// `**.domain`; `TSKEnforcePinning: false` (report only) gives `allow_system_trust_fallback: true`,
/// which is exact: a mismatch is accepted only on a chain that passed system trust.
enum TrustKitImporter {
    static let excludeKeys = ["kSKExcludeSubdomainFromParentPolicy", "TSKExcludeSubdomainFromParentPolicy",
                              "kTSKExcludeSubdomainFromParentPolicy"]
    static let globalKeys: Set<String> = ["TSKSwizzleNetworkDelegates", "TSKPinnedDomains",
                                          "TSKIgnorePinningForUserDefinedTrustAnchors"]

    static func run(_ bytes: [UInt8], defines: [String: String] = [:], into draft: inout ImportDraft) throws(ImportError) {
        let root: PlistNode
        let what: String
        if TrustKitSourceReader.looksLikeSource(bytes, file: draft.file) {
            root = try TrustKitSourceReader.read(bytes, defines: defines, draft: &draft)
            what = "configuration passed to TrustKit"
        } else {
            let (node, syntax) = try PropertyListDocument.parse(bytes, file: draft.file)
            guard node.entries != nil else {
                throw ImportError(file: draft.file, line: node.line, message: "expected a dictionary at the top of the \(syntax.rawValue), found \(node.kind)")
            }
            root = node
            what = syntax.rawValue
        }
        var config = root
        var base = ""
        if let c = root.entry("TSKConfiguration") {
            guard c.value.entries != nil else {
                throw ImportError(file: draft.file, line: c.keyLine, message: "TSKConfiguration must be a dictionary, found \(c.value.kind)")
            }
            config = c.value
            base = "TSKConfiguration"
        } else if root["TSKPinnedDomains"] == nil {
            throw ImportError(file: draft.file, line: root.line,
                              message: "no TSKConfiguration dictionary (nor TSKPinnedDomains at the top level) in this \(what)")
        }
        draft.version = root["CFBundleShortVersionString"]?.string
        globalSettings(config, base: base, draft: &draft)

        let domainsPath = ImportSupport.keyPath(base, "TSKPinnedDomains")
        guard let domains = config.entry("TSKPinnedDomains"), let entries = domains.value.entries, !entries.isEmpty else {
            let why = draft.pinsMayBeUnread && config.entry("TSKPinnedDomains") != nil
                ? "no entry of \(domainsPath) could be read (see the warnings); nothing to import"
                : "\(domainsPath) is missing or empty: TrustKit refuses a configuration without pinned domains"
            throw ImportError(file: draft.file, line: config.line, message: why, findings: draft.findings)
        }
        let subdomainParents = Set(entries.filter { $0.value["TSKIncludeSubdomains"]?.bool == true }
            .map { HostPattern.normalize($0.key) })
        for entry in entries {
            domain(entry, path: ImportSupport.keyPath(domainsPath, entry.key), parents: subdomainParents, draft: &draft)
        }
        nestedSubdomainNote(draft: &draft, domainsPath: domainsPath)
    }

    static func globalSettings(_ config: PlistNode, base: String, draft: inout ImportDraft) {
        let swizzlePath = ImportSupport.keyPath(base, "TSKSwizzleNetworkDelegates")
        if let swizzle = config.entry("TSKSwizzleNetworkDelegates") {
            if swizzle.value.bool == false {
                draft.note(.info, line: swizzle.keyLine, keyPath: swizzlePath,
                           "TSKSwizzleNetworkDelegates is false: pins apply only to connections whose delegate calls TSKPinningValidator")
            }
        } else {
            draft.note(.warning, line: config.line, keyPath: swizzlePath,
                       "TSKSwizzleNetworkDelegates is missing: TrustKit raises an exception at start-up without it")
        }
        if let ignore = config.entry("TSKIgnorePinningForUserDefinedTrustAnchors") {
            draft.note(.info, line: ignore.keyLine, keyPath: ImportSupport.keyPath(base, ignore.key),
                       "ignored: macOS only (chains anchored at a user-installed root skip pinning); not modelled")
        }
        for e in config.entries ?? [] where !globalKeys.contains(e.key) {
            draft.note(.warning, line: e.keyLine, keyPath: ImportSupport.keyPath(base, e.key),
                       "unknown TrustKit setting ignored")
        }
    }

    /// One `TSKPinnedDomains` entry: an excluded subdomain, or the rule its settings give.
    static func domain(_ entry: PlistNode.Entry, path: String, parents: Set<String>, draft: inout ImportDraft) {
        let line = entry.keyLine ?? entry.value.line
        guard let settings = entry.value.entries else {
            draft.note(.error, line: line, keyPath: path, "domain settings must be a dictionary, found \(entry.value.kind); not imported")
            return
        }
        let host = HostPattern.normalize(entry.key)
        if let exclude = settings.first(where: { excludeKeys.contains($0.key) }) {
            excluded(host, exclude: exclude, settings: settings, line: line, path: path, parents: parents, draft: &draft)
            return
        }
        let domain = TrustKitDomain(reading: settings, path: path, draft: &draft)
        guard domain.importable(line: line, path: path, draft: &draft),
              let pattern = draft.pattern(domain.includeSubdomains ? "**." + host : host, line: line, keyPath: path) else { return }
        draft.add(domain.rule(pattern, host: host, line: line, path: path, draft: &draft), keyPath: path)
    }

    /// A subdomain excluded from its parent's policy: TrustKit answers "domain not pinned" for exactly this
    /// host and the OS default evaluation decides, which is an exact rule with no pins.
    static func excluded(_ host: String, exclude: PlistNode.Entry, settings: [PlistNode.Entry], line: Int?, path: String,
                         parents: Set<String>, draft: inout ImportDraft) {
        let ePath = ImportSupport.keyPath(path, exclude.key)
        if settings.count > 1 {
            draft.note(.error, line: line, keyPath: path,
                       "\(exclude.key) must be the only setting of its domain (TrustKit raises at start-up); other settings ignored")
        }
        if exclude.value.bool != true {
            draft.note(.warning, line: exclude.keyLine, keyPath: ePath,
                       "TrustKit excludes the domain when this key is present, whatever its value; imported as excluded")
        }
        if host.utf8.count <= maxHostBytes, !parentDomains(of: host).contains(where: parents.contains) {
            draft.note(.error, line: line, keyPath: path,
                       "no parent domain with TSKIncludeSubdomains: TrustKit raises at start-up")
        }
        guard let pattern = draft.pattern(host, line: line, keyPath: path) else { return }
        draft.add(ImportedRule(pattern: pattern, policy: HostPolicy(pins: [], requireSystemTrust: true), line: line,
                               origin: ["\(draft.position(line)) \(path)",
                                        "\(exclude.key): pinning disabled for this host, the OS default trust evaluation decides"]),
                  keyPath: path)
    }

    /// TrustKit picks the first `TSKIncludeSubdomains` parent it finds in an unordered dictionary; pinguard
    /// (like Android and OkHttp) takes the longest. Say so where it matters: once per inner pattern, naming the
    /// nearest enclosing one (looked up by parent domain, so thousands of domains stay linear).
    static func nestedSubdomainNote(draft: inout ImportDraft, domainsPath: String) {
        let deep = draft.rules.filter { if case .anyDepth = $0.pattern { return true }; return false }
        let deepDomains = Set(deep.map(\.pattern.domain))
        for inner in deep {
            let outers = parentDomains(of: inner.pattern.domain).filter(deepDomains.contains)
            guard let nearest = outers.first else { continue }
            let message = outers.count == 1
                ? "hosts under \(inner.pattern) also match **.\(nearest): TrustKit may apply either policy (its lookup order is undefined); pinguard applies the longer one"
                : "hosts under \(inner.pattern) also match **.\(nearest) and \(outers.count - 1) broader pattern(s): TrustKit may apply any of these policies (its lookup order is undefined); pinguard applies the longest one"
            draft.note(.warning, line: inner.line, keyPath: ImportSupport.keyPath(domainsPath, inner.pattern.domain), message)
        }
    }

    /// The longest host name DNS allows; a longer key is no host, and has no parent domain worth looking up.
    static let maxHostBytes = 253

    /// The parent domains of `host`, nearest first: `a.b.c` gives `b.c` and `c`.
    static func parentDomains(of host: String) -> [String] {
        var out: [String] = []
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            out.append(String(rest))
        }
        return out
    }
}
