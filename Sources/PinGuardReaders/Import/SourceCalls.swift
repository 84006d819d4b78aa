import PinGuardCore

/// The calls apps build pin hosts and pins with, evaluated when their arguments are constants (of the file or
/// `--define`d): the host of a URL (`URI(BuildConfig.API_URL).host`, `URL(string: apiUrlString)!.host!`,
/// `Uri.parse(X).host`, `HttpUrl.get(X).host()`, `X.toHttpUrl().host`) and `String.format` / `String(format:)`
/// with `%s`/`%@`. Any other call is not a constant. At most `maxCallDepth` evaluated calls nest, so evaluation
/// never recurses with the input.
extension SourceConstants {
    /// Evaluated calls nested deeper than this are not constants.
    static let maxCallDepth = 8

    /// Constructors and parsers whose result has the host of the URL string they are given.
    static let urlParsers: Set<String> = [
        "URI", "URL", "java.net.URI", "java.net.URL", "URI.create", "java.net.URI.create", "Uri.parse",
        "android.net.Uri.parse", "HttpUrl.get", "HttpUrl.parse", "okhttp3.HttpUrl.get", "okhttp3.HttpUrl.parse",
    ]

    /// Conversions of a URL string whose result has its host (`X.toHttpUrl().host`).
    static let urlConversions: Set<String> = ["toHttpUrl", "toHttpUrlOrNull", "toUri", "toURI"]

    /// The value of the call of `name` whose `(` is at `open`, or nil when it is not one evaluated here (the
    /// caller then reads the name as a constant, as for any other call).
    func call(_ name: String, _ s: SourceScanner, open: Int, depth: Int) -> Resolution<String>? {
        let short = name.split(separator: ".").last.map(String.init) ?? name
        // Other calls are not split into arguments: most calls in a file are none of these.
        guard SourceConstants.urlParsers.contains(name) || SourceConstants.urlConversions.contains(short)
                || ["String.format", "java.lang.String.format", "String"].contains(name),
              let close = s.matching(open), let args = s.arguments(open) else { return nil }
        if SourceConstants.urlParsers.contains(name) {
            guard depth < SourceConstants.maxCallDepth, args.count == 1 else { return .notConstant }
            return host(of: argument(s, args[0], label: "string", depth: depth), s, after: close)
        }
        if SourceConstants.urlConversions.contains(short), name.contains("."), args.isEmpty {
            guard case .string(let url)? = lookup(String(name.dropLast(short.count + 1))) else { return .notConstant }
            return host(of: .value(url, end: close + 1), s, after: close)
        }
        if ["String.format", "java.lang.String.format"].contains(name) || (name == "String" && hasLabel(s, args.first, "format")) {
            guard depth < SourceConstants.maxCallDepth, !args.isEmpty else { return .notConstant }
            return format(args.map { argument(s, $0, label: "format", depth: depth) }, end: close + 1)
        }
        return nil
    }

    /// The string argument `range`, without a Swift label `label:`, when it is one whole constant expression.
    func argument(_ s: SourceScanner, _ range: Range<Int>, label: String, depth: Int) -> Resolution<String> {
        let start = hasLabel(s, range, label) ? range.lowerBound + 2 : range.lowerBound
        guard start < range.upperBound else { return .notConstant }
        let resolved = resolve(s, from: start, depth: depth + 1)
        if case .value(_, let end) = resolved, end != range.upperBound { return .notConstant }
        return resolved
    }

    /// Whether `range` starts with the Swift argument label `label:`.
    func hasLabel(_ s: SourceScanner, _ range: Range<Int>?, _ label: String) -> Bool {
        guard let range, range.count > 2 else { return false }
        return s[range.lowerBound].identifier == label && s[range.lowerBound + 1].isPunct(":")
    }

    /// The host of the URL `url` when the call ending at `close` is followed by `.host`, `.host()` or `.getHost()`
    /// (Swift's `!`/`?` and Kotlin's `!!` allowed around it); the index after that.
    func host(of url: Resolution<String>, _ s: SourceScanner, after close: Int) -> Resolution<String> {
        guard case .value(let text, _) = url else { return url }
        var k = skipUnwrapping(s, close + 1, optional: true)
        guard k + 1 < s.count, s[k].isPunct("."), let member = s[k + 1].identifier, ["host", "getHost"].contains(member),
              let host = SourceConstants.host(ofURL: text) else { return .notConstant }
        k += 2
        if k + 1 < s.count, s[k].isPunct("("), s[k + 1].isPunct(")") { k += 2 }
        return .value(host, end: skipUnwrapping(s, k, optional: false))
    }

    /// The index after the `!` (and, when `optional`, `?`) tokens at `k`; a `!` of `!=` is not skipped.
    func skipUnwrapping(_ s: SourceScanner, _ k: Int, optional: Bool) -> Int {
        var k = k
        while k < s.count, s[k].isPunct("!") || (optional && s[k].isPunct("?")), !(k + 1 < s.count && s[k + 1].isPunct("=")) { k += 1 }
        return k
    }

    /// The host of `scheme://[user@]host[:port][/…]` as `java.net.URI.getHost` gives it; nil without one.
    static func host(ofURL url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        var authority = url[scheme.upperBound...].prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            guard let end = authority.firstIndex(of: "]") else { return nil }
            return String(authority[...end])
        }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : String(host)
    }

    /// `String.format(format, args…)` for `%s`, `%@` and `%%`; any other conversion is not a constant.
    func format(_ parts: [Resolution<String>], end: Int) -> Resolution<String> {
        var values: [String] = []
        for part in parts {
            guard case .value(let v, _) = part else { return part }
            values.append(v)
        }
        var out = ""
        var next = 1
        var chars = values[0].makeIterator()
        while let c = chars.next() {
            guard c == "%" else { out.append(c); continue }
            switch chars.next() {
            case "%": out.append("%")
            case "s", "@":
                guard next < values.count else { return .notConstant }
                out += values[next]
                next += 1
            default: return .notConstant
            }
        }
        guard out.utf8.count <= ImportLimits.maxResolvedStringBytes else { return .tooLong(inherited: false) }
        return .value(out, end: end)
    }
}
