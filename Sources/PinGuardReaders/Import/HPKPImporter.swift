import Foundation
import PinGuardCore

/// HTTP Public Key Pinning (RFC 7469) header lines: `Public-Key-Pins:` and `Public-Key-Pins-Report-Only:`.
///
/// The header carries no host name, so the file says which host sent it: a `Host: api.example.com` line, or
/// a line that is not itself a header and contains an `https://host/…` URL (a comment, a curl command, a bare
/// URL), applies to the headers that follow it. A header with no host before it takes the `name` given to the import when that is a host name
/// (with a warning), else it is refused. Leading `< `/`> ` (curl -v) are ignored. Server configurations are read
/// too (see `HPKPLines`): nginx `add_header`, Apache `Header set`, with `server_name`/`ServerName` as the host, and
/// header values folded over continuation lines.
///
/// A UA validates the chain normally, then requires a `pin-sha256` to match the SPKI of any certificate in
/// the validated chain: `spki` pins scope `any`, `require_system_trust: true`. `includeSubDomains` gives
/// `**.host`. Report-Only reports a mismatch but does not fail, on a chain that passed validation:
/// `allow_system_trust_fallback: true`. `max-age` is not modelled (info); `max-age=0` removes the host.
enum HPKPImporter {
    /// One noted header.
    struct Header {
        var line: Int
        var pins: [Pin]
        var includeSubDomains: Bool
        var maxAge: Int
        var reportOnly: Bool
    }

    /// Headers in force per host.
    struct HostHeaders {
        var host: String
        var enforced: Header?
        var reportOnly: Header?
    }

    static let enforcedName = "public-key-pins:"
    static let reportOnlyName = "public-key-pins-report-only:"

    static func run(_ bytes: [UInt8], name: String, into draft: inout ImportDraft) throws(ImportError) {
        let text = String(decoding: bytes, as: UTF8.self)
        var current: String?
        var hosts: [HostHeaders] = []
        var sawHeader = false
        var commented: [(line: Int, host: String?)] = []
        for (lineNo, header) in HPKPLines.logicalLines(text) {
            var line = header
            if line.hasPrefix("< ") || line.hasPrefix("> ") { line = String(line.dropFirst(2)) }
            if HPKPLines.isCommentedOutHeader(line) {
                commented.append((lineNo, current))
                continue
            }
            if let host = HPKPLines.serverName(line) {
                current = host
                continue
            }
            if let unwrapped = HPKPLines.serverDirective(line) { line = unwrapped }
            let lower = line.lowercased()
            if lower.hasPrefix("host:") {
                current = hostName(String(line.dropFirst(5)))
                continue
            }
            let reportOnly = lower.hasPrefix(reportOnlyName)
            guard reportOnly || lower.hasPrefix(enforcedName) else {
                // Other response headers (Location, Link, CSP, …) carry URLs of other hosts: only comments,
                // commands and bare URLs name the host.
                if !isHeaderLine(line), let url = lower.range(of: "https://") {
                    current = hostName(String(line[url.upperBound...]))
                }
                continue
            }
            sawHeader = true
            let value = String(line.dropFirst(reportOnly ? reportOnlyName.count : enforcedName.count))
            var host = current
            if host == nil {
                if HostPattern.normalize(name).contains("."), case .exact(let h)? = try? HostPattern.parse(name) {
                    host = h
                    draft.note(.warning, line: lineNo, "no Host line or https:// URL before this header; using the import name \(h) as its host")
                } else {
                    draft.note(.error, line: lineNo,
                               "no host for this header: put a \"Host: example.com\" line (or an https:// URL) before it; not imported")
                    continue
                }
            }
            guard let h = host, let header = parse(value, line: lineNo, reportOnly: reportOnly, draft: &draft) else { continue }
            var entry = hosts.first(where: { $0.host == h }) ?? HostHeaders(host: h)
            let previous = reportOnly ? entry.reportOnly : entry.enforced
            if let p = previous {
                draft.note(.info, line: lineNo, "replaces the header for \(h) on line \(p.line) (a UA keeps the latest)")
            }
            if header.maxAge == 0 {
                draft.note(.warning, line: lineNo, "max-age=0 removes the pins for \(h); nothing imported from this header")
                if reportOnly { entry.reportOnly = nil } else { entry.enforced = nil }
            } else if reportOnly {
                entry.reportOnly = header
            } else {
                entry.enforced = header
            }
            if let i = hosts.firstIndex(where: { $0.host == h }) { hosts[i] = entry } else { hosts.append(entry) }
        }
        // A README quoting a header in a heading or list is no server configuration: it is refused with what it looks like.
        guard sawHeader || (!commented.isEmpty && !FormatGuess.looksLikeMarkdown(text, file: draft.file)) else {
            throw ImportError(file: draft.file, line: nil, message: "no Public-Key-Pins or Public-Key-Pins-Report-Only header line")
        }
        for c in commented {
            let host = c.host ?? "the server"
            draft.note(.info, line: c.line, "Public-Key-Pins is commented out here: \(host) does not send it, so it enforces no pins; not imported")
            draft.configures.append("a commented-out Public-Key-Pins header for \(host) (line \(c.line))")
        }
        for entry in hosts { emit(entry, draft: &draft) }
    }

    /// Whether `line` is an HTTP header field (`Name: value`) or status line (`HTTP/1.1 200 OK`).
    static func isHeaderLine(_ line: String) -> Bool {
        if line.hasPrefix("HTTP/") { return true }
        guard let colon = line.firstIndex(of: ":") else { return false }
        let name = line[..<colon]
        let isToken = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        return isToken && !line[line.index(after: colon)...].hasPrefix("//")
    }

    /// The host of a `Host:` value or of what follows `https://`, without port, path or user info.
    static func hostName(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var host = trimmed.prefix { !"/?#\"' \t>".contains($0) }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
        let h = HostPattern.normalize(String(host))
        return h.isEmpty ? nil : h
    }

    /// Parses the directives; nil (with an error finding) when a UA would not note the header.
    static func parse(_ value: String, line: Int, reportOnly: Bool, draft: inout ImportDraft) -> Header? {
        var header = Header(line: line, pins: [], includeSubDomains: false, maxAge: -1, reportOnly: reportOnly)
        var seen = Set<String>()
        for directive in directives(value) {
            // Not omitting empty pieces: "=x" is a directive with an empty name, not one named "x".
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first else { continue }
            let name = first.lowercased()
            var arg = parts.count > 1 ? parts[1] : ""
            if arg.count >= 2, arg.hasPrefix("\""), arg.hasSuffix("\"") { arg = String(arg.dropFirst().dropLast()) }
            if !name.hasPrefix("pin-") {
                if seen.contains(name) {
                    draft.note(.error, line: line, "directive \(name) appears twice: a UA ignores the whole header (RFC 7469 §2.1); not imported")
                    return nil
                }
                seen.insert(name)
            }
            switch name {
            case "pin-sha256":
                guard let hash = ImportSupport.foundationSHA256(arg, line: line, draft: &draft) else {
                    draft.note(.error, line: line, "pin-sha256=\"\(arg)\" is not base64 of a 32-byte SHA-256 digest; pin not imported")
                    continue
                }
                draft.append(Pin(type: .spki, hash: hash, role: .primary, scope: .any, line: line), to: &header.pins)
            case "max-age":
                guard let n = ImportSupport.deltaSeconds(arg) else {
                    draft.note(.error, line: line, "max-age=\(arg) is not a number of seconds: a UA ignores the header; not imported")
                    return nil
                }
                header.maxAge = n
            case "includesubdomains":
                header.includeSubDomains = true
            case "report-uri":
                draft.note(.info, line: line, "report-uri is not modelled; ignored")
            default:
                if name.hasPrefix("pin-") {
                    draft.note(.warning, line: line,
                               "\(name): unsupported hash algorithm (UAs ignore it, pinguard models pin-sha256 only); not imported")
                } else {
                    draft.note(.info, line: line, "unknown directive \(name) ignored, as UAs do")
                }
            }
        }
        if header.maxAge < 0 {
            draft.note(.error, line: line, "no max-age directive (required): a UA ignores the header; not imported")
            return nil
        }
        if header.maxAge > 0 {
            draft.note(.info, line: line,
                       "max-age=\(header.maxAge) (\(ImportSupport.formatSeconds(header.maxAge))) is how long a UA remembers the pins; not modelled, the pins are imported without expiry")
        }
        if header.pins.count < 2 {
            draft.note(.error, line: line,
                       "\(header.pins.count) usable pin(s): a UA notes a header only when it has a backup pin, one not in the served chain (RFC 7469 §2.5); not imported")
            return nil
        }
        return header
    }

    /// Splits at `;` outside quoted strings.
    static func directives(_ value: String) -> [String] {
        var out: [String] = []
        var cur = ""
        var quoted = false
        for c in value {
            if c == "\"" { quoted.toggle() }
            if c == ";" && !quoted {
                out.append(cur)
                cur = ""
            } else {
                cur.append(c)
            }
        }
        out.append(cur)
        return out.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func emit(_ entry: HostHeaders, draft: inout ImportDraft) {
        var enforcedPattern: HostPattern?
        if let e = entry.enforced {
            enforcedPattern = rule(e, host: entry.host, draft: &draft)
        }
        if let r = entry.reportOnly {
            let pattern = try? HostPattern.parse(r.includeSubDomains ? "**." + entry.host : entry.host)
            if let enforced = enforcedPattern, let p = pattern, p.isContained(in: enforced) {
                draft.note(.info, line: r.line,
                           "Public-Key-Pins-Report-Only for \(entry.host) is overridden by the enforced header on line \(entry.enforced!.line); not imported")
            } else {
                _ = rule(r, host: entry.host, draft: &draft)
            }
        }
    }

    @discardableResult
    static func rule(_ h: Header, host: String, draft: inout ImportDraft) -> HostPattern? {
        guard let pattern = draft.pattern(h.includeSubDomains ? "**." + host : host, line: h.line) else { return nil }
        var origin = ["\(draft.position(h.line)) \(h.reportOnly ? "Public-Key-Pins-Report-Only" : "Public-Key-Pins") for \(host)"]
        if h.reportOnly { origin.append("report only: a pin mismatch is accepted on a chain that passes validation") }
        let policy = HostPolicy(pins: h.pins, failStrategy: .strict, requireSystemTrust: true,
                                allowSystemTrustFallback: h.reportOnly)
        draft.add(ImportedRule(pattern: pattern, policy: policy, line: h.line, origin: origin))
        return pattern
    }
}
