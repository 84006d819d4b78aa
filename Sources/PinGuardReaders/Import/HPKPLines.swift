import PinGuardCore

/// The lines of an HPKP input as headers: folded values joined, and server configuration directives that set
/// `Public-Key-Pins` turned into the header line they send.
enum HPKPLines {
    /// Lines with their 1-based number, trimmed; a line starting with a space or tab after a `Public-Key-Pins`
    /// header continues it (obsolete line folding, RFC 7230 §3.2.4), so the value is read whole.
    static func logicalLines(_ text: String) -> [(Int, String)] {
        var out: [(Int, String)] = []
        var continuable = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if continuable, let first = raw.first, first == " " || first == "\t", !trimmed.isEmpty, !out.isEmpty {
                out[out.count - 1].1 += " " + trimmed
                continue
            }
            let lower = trimmed.lowercased()
            continuable = lower.hasPrefix("public-key-pins") || lower.hasPrefix("< public-key-pins")
            out.append((index + 1, trimmed))
        }
        return out
    }

    /// Whether `line` is a `Public-Key-Pins` header or an nginx/Apache directive sending one, commented out with
    /// `#` (a header line must also carry a `pin-sha256`, so a `# Public-Key-Pins` heading is not one).
    static func isCommentedOutHeader(_ line: String) -> Bool {
        guard line.hasPrefix("#") else { return false }
        let rest = String(line.drop { $0 == "#" || $0 == " " || $0 == "\t" })
        if serverDirective(rest) != nil { return true }
        let lower = rest.lowercased()
        return lower.hasPrefix("public-key-pins") && lower.contains(":") && lower.contains("pin-sha256")
    }

    /// The first name of an nginx `server_name a.example.com …;` or Apache `ServerName a.example.com[:port]` line.
    static func serverName(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, ["server_name", "servername"].contains(words[0].lowercased()) else { return nil }
        var name = String(words[1])
        if name.hasSuffix(";") { name.removeLast() }
        if let colon = name.firstIndex(of: ":") { name = String(name[..<colon]) }
        let host = HostPattern.normalize(name.hasPrefix("*.") ? String(name.dropFirst(2)) : name)
        return host.isEmpty || host == "_" ? nil : host
    }

    /// `Public-Key-Pins: VALUE` for nginx `add_header Public-Key-Pins 'VALUE' [always];` and Apache
    /// `Header [always] set|add|append Public-Key-Pins "VALUE"` (also `-Report-Only`); nil for other lines.
    static func serverDirective(_ line: String) -> String? {
        var rest = Substring(line)
        func word() -> Substring {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let w = rest.prefix { $0 != " " && $0 != "\t" }
            rest = rest.dropFirst(w.count)
            return w
        }
        let first = word().lowercased()
        if first == "header" {
            var verb = word().lowercased()
            if verb == "always" || verb == "onsuccess" { verb = word().lowercased() }
            guard ["set", "add", "append"].contains(verb) else { return nil }
        } else if first != "add_header" && first != "more_set_headers" {
            return nil
        }
        let name = word()
        guard ["public-key-pins", "public-key-pins-report-only"].contains(name.lowercased()) else { return nil }
        var value = rest.trimmingCharacters(in: .whitespaces)
        if value.hasSuffix(";") { value.removeLast() }
        value = value.trimmingCharacters(in: .whitespaces)
        if value.hasSuffix(" always") { value = String(value.dropLast(7)).trimmingCharacters(in: .whitespaces) }
        if let q = value.first, q == "\"" || q == "'", value.count >= 2, value.last == q {
            value = String(value.dropFirst().dropLast())
            if q == "\"" { value = value.replacingOccurrences(of: "\\\"", with: "\"") }
        }
        return "\(name): \(value)"
    }
}
