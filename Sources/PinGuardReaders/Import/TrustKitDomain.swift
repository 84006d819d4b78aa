import Foundation
import PinGuardCore

/// What the settings of one `TSKPinnedDomains` entry say, read setting by setting in the order written.
struct TrustKitDomain {
    var includeSubdomains = false
    var enforce = true
    var expires: Date?
    /// Why the imported rule looks as it does, for its origin comment.
    var notes: [String] = []
    var pins = DistinctPins()
    var sawHashes = false

    /// Reads one setting `s` (found at `path`, `line`) into the domain.
    typealias Reader = @Sendable (_ d: inout TrustKitDomain, _ s: PlistNode.Entry, _ path: String, _ line: Int?,
                                  _ draft: inout ImportDraft) -> Void

    /// Every domain setting TrustKit knows, and what each becomes.
    static let readers: [String: Reader] = [
        "TSKIncludeSubdomains": { d, s, path, line, draft in
            guard let b = s.value.bool else {
                return draft.note(.error, line: line, keyPath: path, "expected a boolean, found \(s.value.kind); treated as false")
            }
            d.includeSubdomains = b
        },
        "TSKEnforcePinning": { d, s, path, line, draft in
            guard let b = s.value.bool else {
                return draft.note(.error, line: line, keyPath: path, "expected a boolean, found \(s.value.kind); treated as true")
            }
            d.enforce = b
        },
        "TSKExpirationDate": { d, s, path, line, draft in
            guard let text = s.value.string, let day = ImportSupport.startOfDay(text) else {
                return draft.note(.warning, line: line, keyPath: path,
                                  "not a yyyy-MM-dd date: TrustKit ignores it, so these pins never expire; imported without expires")
            }
            d.expires = day
            d.notes.append("TSKExpirationDate \(text): TrustKit stops pinning when that day begins (device time zone; UTC here)")
        },
        "TSKPublicKeyHashes": { d, s, path, line, draft in d.readHashes(s.value, path: path, line: line, draft: &draft) },
        "TSKReportUris": ignored(.info, "pin failure reporting is not modelled; ignored"),
        "TSKDisableDefaultReportUri": ignored(.info, "pin failure reporting is not modelled; ignored"),
        "TSKPublicKeyAlgorithms": ignored(.info, "ignored: TrustKit 1.6 and later hash the SPKI whatever its algorithm"),
        "TSKAdditionalTrustAnchors": ignored(.warning,
                                             "extra trust anchors apply to DEBUG builds only; not imported (pinguard checks release behaviour)"),
    ]

    /// A setting that changes nothing pinguard models: a finding that says so.
    static func ignored(_ severity: FindingSeverity, _ message: String) -> Reader {
        { _, _, path, line, draft in draft.note(severity, line: line, keyPath: path, message) }
    }

    static let unknown = ignored(.warning, "unknown TrustKit domain setting ignored")

    /// Reads `settings` in order; an unknown one is a warning.
    init(reading settings: [PlistNode.Entry], path: String, draft: inout ImportDraft) {
        for s in settings {
            let read = Self.readers[s.key] ?? Self.unknown
            read(&self, s, ImportSupport.keyPath(path, s.key), s.keyLine ?? s.value.line, &draft)
        }
    }

    /// `TSKPublicKeyHashes`: each base64 SHA-256 an `spki` pin of scope `any`; anything else a finding.
    mutating func readHashes(_ value: PlistNode, path: String, line: Int?, draft: inout ImportDraft) {
        sawHashes = true
        guard let list = value.array else {
            return draft.note(.error, line: line, keyPath: path, "expected an array of base64 strings, found \(value.kind)")
        }
        for (i, item) in list.enumerated() {
            let iPath = ImportSupport.keyPath(path, i)
            let iLine = item.line ?? line
            guard let text = item.string else {
                draft.note(.error, line: iLine, keyPath: iPath, "expected a base64 string, found \(item.kind); pin not imported")
                continue
            }
            guard let hash = ImportSupport.foundationSHA256(text, line: iLine, keyPath: iPath, draft: &draft) else {
                draft.note(.error, line: iLine, keyPath: iPath,
                           "\(EchoedInput.quoted(text)) is not base64 of a 32-byte SHA-256 digest (TrustKit raises at start-up); pin not imported")
                continue
            }
            draft.append(Pin(type: .spki, hash: hash, role: .primary, scope: .any, line: iLine), to: &pins, keyPath: iPath)
        }
    }

    /// Whether the domain gives a rule: it has hashes and a usable pin. TrustKit's start-up checks (no hashes,
    /// fewer than two pins when enforced) are errors either way.
    func importable(line: Int?, path: String, draft: inout ImportDraft) -> Bool {
        guard sawHashes else {
            draft.note(.error, line: line, keyPath: path, "no TSKPublicKeyHashes: TrustKit raises at start-up; not imported")
            return false
        }
        let required = enforce ? 2 : 1
        if pins.count < required {
            draft.note(.error, line: line, keyPath: path,
                       "\(pins.count) usable pin(s): TrustKit requires at least \(required) (a backup pin) and raises at start-up" +
                       (pins.isEmpty ? "; not imported" : "; imported as written"))
        }
        return !pins.isEmpty
    }

    /// The rule for `host` at `pattern`; report-only pinning is said twice: a warning, and in the origin.
    func rule(_ pattern: HostPattern, host: String, line: Int?, path: String, draft: inout ImportDraft) -> ImportedRule {
        var notes = self.notes
        if !enforce {
            draft.note(.warning, line: line, keyPath: path,
                       "TSKEnforcePinning false: report only, pins are not enforced for \(host); imported as allow_system_trust_fallback: true (a chain failing system trust is still rejected)")
            notes.append("TSKEnforcePinning false: report only, a pin mismatch is accepted on a chain that passes system trust")
        }
        let policy = HostPolicy(pins: pins.pins, failStrategy: .strict, requireSystemTrust: true,
                                allowSystemTrustFallback: !enforce, expires: expires)
        return ImportedRule(pattern: pattern, policy: policy, line: line, origin: ["\(draft.position(line)) \(path)"] + notes)
    }
}
