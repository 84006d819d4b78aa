import Foundation

/// OkHttp `CertificatePinner.Builder().add(pattern, pins…)` calls in Kotlin or Java source.
///
/// OkHttp validates the chain with the platform trust manager, then requires one `sha256/` pin to match the
/// SPKI of any certificate of the cleaned chain. A host gets the pins of *every* pattern that matches it, so
/// each imported rule carries the pins of the broader patterns that contain it (and a host where `*.d` and
/// `**.x.d` meet gets an exact rule of its own). Arguments may be string literals, `+` concatenations and
/// `val`/`const val`/`static final String` constants of the same file, `*arrayOf(…)` spreads (also of constants)
/// and Java `new String[] {…}` arrays.
enum OkHttpImporter {
    /// A constant found in the file.
    enum Constant: Equatable {
        case string(String)
        case array([String])
    }

    /// One accepted `add(…)` call.
    struct AddCall {
        var line: Int
        var patternText: String?
        var pins: [(value: String?, line: Int)]
    }

    /// The calls for one pattern (OkHttp accumulates pins of repeated patterns).
    struct PatternGroup {
        var pattern: HostPattern
        var lines: [Int]
        var pins: [Pin]
    }

    static func run(_ bytes: [UInt8], into draft: inout ImportDraft) throws(ImportError) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("CertificatePinner") else {
            throw ImportError(file: draft.file, line: nil, message: "no CertificatePinner in this file")
        }
        let kotlin = !draft.file.lowercased().hasSuffix(".java")
        let tokens = SourceTokenizer.tokenize(text, kotlin: kotlin)
        let constants = findConstants(tokens)
        let calls = findAddCalls(tokens, constants: constants, draft: &draft)
        if calls.isEmpty {
            throw ImportError(file: draft.file, line: nil,
                              message: "no CertificatePinner.Builder().add(pattern, pins…) call with constant arguments found",
                              findings: draft.findings)
        }
        var groups: [PatternGroup] = []
        for call in calls {
            guard let patternText = call.patternText else {
                draft.note(.warning, line: call.line, "the pattern of this add() is not a constant string; call not imported")
                continue
            }
            guard let pattern = draft.pattern(patternText, line: call.line) else { continue }
            var pins: [Pin] = []
            for arg in call.pins {
                if let pin = pin(arg.value, line: arg.line, draft: &draft) { draft.append(pin, to: &pins) }
            }
            if let i = groups.firstIndex(where: { $0.pattern == pattern }) {
                groups[i].lines.append(call.line)
                for p in pins where !groups[i].pins.contains(p) { groups[i].pins.append(p) }
            } else {
                groups.append(PatternGroup(pattern: pattern, lines: [call.line], pins: pins))
            }
        }
        emit(groups, draft: &draft)
    }

    /// Turns one resolved pin argument into a pin, or records why not.
    static func pin(_ value: String?, line: Int, draft: inout ImportDraft) -> Pin? {
        guard let value else {
            draft.note(.warning, line: line, "pin argument is not a constant string; not imported")
            return nil
        }
        if value.hasPrefix("sha1/") {
            draft.note(.error, line: line,
                       "sha1 pin \"\(value)\" is not supported (pinguard models SHA-256 pins only); not imported, so the result may reject chains the app accepts")
            return nil
        }
        guard value.hasPrefix("sha256/") else {
            draft.note(.error, line: line,
                       "\"\(value)\": OkHttp pins must start with sha256/ or sha1/ (OkHttp throws IllegalArgumentException); not imported")
            return nil
        }
        let body = String(value.dropFirst(7))
        guard let bytes = ImportSupport.lenientBase64(body), bytes.count == 32 else {
            draft.note(.error, line: line, "\"\(value)\" is not base64 of a 32-byte SHA-256 digest; not imported")
            return nil
        }
        let hash = Base64.encode(bytes)
        if hash != body { draft.note(.info, line: line, "non-canonical base64 \"\(body)\" read as \(hash), as OkHttp does") }
        return Pin(type: .spki, hash: hash, role: .primary, scope: .any, line: line)
    }

    static func emit(_ groups: [PatternGroup], draft: inout ImportDraft) {
        func lines(_ g: PatternGroup) -> String { g.lines.map(String.init).joined(separator: ", ") }
        var rules: [(HostPattern, Int, [Pin], [String])] = []
        for g in groups {
            var pins = g.pins
            var origin = g.lines.map { "\(draft.position($0)) .add(\"\(g.pattern)\", …)" }
            if g.lines.count > 1 { origin.append("repeated pattern: OkHttp accepts the pins of every add() call") }
            for other in groups where other.pattern != g.pattern && g.pattern.isContained(in: other.pattern) {
                let extra = other.pins.filter { !pins.contains($0) }
                guard !extra.isEmpty else { continue }
                pins += extra
                origin.append("plus the pins of \(other.pattern) (line \(lines(other))): OkHttp applies every matching pattern")
            }
            rules.append((g.pattern, g.lines[0], pins, origin))
        }
        // `*.d` and `**.x.d` both match exactly the host `x.d`, which neither contains; give it an exact rule.
        for one in groups {
            guard case .oneLabel(let d) = one.pattern else { continue }
            for deep in groups {
                guard case .anyDepth(let e) = deep.pattern, e.hasSuffix("." + d),
                      !e.dropLast(d.count + 1).contains(".") else { continue }
                let host = HostPattern.exact(e)
                guard !rules.contains(where: { $0.0 == host }) else { continue }
                let matching = groups.filter { $0.pattern.matches(e) }
                var pins: [Pin] = []
                for g in matching { for p in g.pins where !pins.contains(p) { pins.append(p) } }
                let origin = ["host \(e) matches " + matching.map { "\($0.pattern) (line \(lines($0)))" }.joined(separator: " and ") +
                              ": OkHttp applies the pins of all of them"]
                rules.append((host, min(one.lines[0], deep.lines[0]), pins, origin))
            }
        }
        for (pattern, line, pins, origin) in rules {
            guard !pins.isEmpty else {
                draft.note(.error, line: line, "no usable pin for \(pattern); not imported")
                continue
            }
            let policy = HostPolicy(pins: pins, failStrategy: .strict, requireSystemTrust: true, allowSystemTrustFallback: false)
            draft.add(ImportedRule(pattern: pattern, policy: policy, line: line, origin: origin))
        }
    }

    // MARK: source scanning

    /// `NAME = "…"`, `NAME: String = "…"`, `NAME = arrayOf("…", …)`, `String[] NAME = {"…", …}`; names defined
    /// twice with different values are dropped (not constant).
    static func findConstants(_ t: [SourceToken]) -> [String: Constant] {
        var found: [String: Constant] = [:]
        var ambiguous = Set<String>()
        for i in t.indices {
            guard let name = t[i].identifier else { continue }
            var j = i + 1
            if j + 1 < t.count, t[j].isPunct(":"), t[j + 1].identifier != nil { j += 2 }
            guard j + 1 < t.count, t[j].isPunct("="), !t[j + 1].isPunct("=") else { continue }
            guard let value = constantValue(t, from: j + 1, constants: found) else { continue }
            if let old = found[name], old != value { ambiguous.insert(name) }
            found[name] = value
        }
        for name in ambiguous { found[name] = nil }
        return found
    }

    static func constantValue(_ t: [SourceToken], from start: Int, constants: [String: Constant]) -> Constant? {
        guard start < t.count else { return nil }
        if let fn = t[start].identifier, ["arrayOf", "listOf", "setOf"].contains(fn),
           start + 1 < t.count, t[start + 1].isPunct("(") {
            return stringList(t, open: start + 1, close: ")", constants: constants).map(Constant.array)
        }
        if t[start].isPunct("{") {
            return stringList(t, open: start, close: "}", constants: constants).map(Constant.array)
        }
        var end = start
        while end < t.count, !(t[end].isPunct(";") || t[end].isPunct(")") || t[end].isPunct(",")) {
            if end > start, t[end].identifier != nil, t[end - 1].identifier == nil, !t[end - 1].isPunct("+") { break }
            if end > start, case .string = t[end].kind, !t[end - 1].isPunct("+") { break }
            end += 1
        }
        return resolve(Array(t[start..<end]), constants: constants).map(Constant.string)
    }

    static func stringList(_ t: [SourceToken], open: Int, close: Character, constants: [String: Constant]) -> [String]? {
        guard let end = matching(t, open) else { return nil }
        var out: [String] = []
        for arg in split(Array(t[(open + 1)..<end])) where !arg.isEmpty {
            guard let s = resolve(arg, constants: constants) else { return nil }
            out.append(s)
        }
        return out
    }

    /// A string expression: literals and string constants joined by `+`.
    static func resolve(_ expr: [SourceToken], constants: [String: Constant]) -> String? {
        guard !expr.isEmpty else { return nil }
        var out = ""
        for (k, tok) in expr.enumerated() {
            if k % 2 == 1 {
                guard tok.isPunct("+") else { return nil }
                continue
            }
            switch tok.kind {
            case .string(let s, let template):
                guard !template else { return nil }
                out += s
            case .identifier(let name):
                guard case .string(let s)? = constants[name] else { return nil }
                out += s
            default:
                return nil
            }
        }
        return expr.count % 2 == 1 ? out : nil
    }

    /// Index of the bracket closing the one at `open`.
    static func matching(_ t: [SourceToken], _ open: Int) -> Int? {
        var depth = 0
        for k in open..<t.count {
            if t[k].isPunct("(") || t[k].isPunct("[") || t[k].isPunct("{") { depth += 1 }
            if t[k].isPunct(")") || t[k].isPunct("]") || t[k].isPunct("}") {
                depth -= 1
                if depth == 0 { return k }
            }
        }
        return nil
    }

    /// Splits an argument list at top-level commas.
    static func split(_ t: [SourceToken]) -> [[SourceToken]] {
        var out: [[SourceToken]] = [[]]
        var depth = 0
        for tok in t {
            if tok.isPunct("(") || tok.isPunct("[") || tok.isPunct("{") { depth += 1 }
            if tok.isPunct(")") || tok.isPunct("]") || tok.isPunct("}") { depth -= 1 }
            if depth == 0 && tok.isPunct(",") { out.append([]); continue }
            out[out.count - 1].append(tok)
        }
        return out
    }

    /// Every `add(…)` on a `CertificatePinner.Builder` (chained, through a variable, or inside `.apply { }`),
    /// and any other `add(…)` whose arguments are `sha256/`/`sha1/` pins.
    static func findAddCalls(_ t: [SourceToken], constants: [String: Constant], draft: inout ImportDraft) -> [AddCall] {
        var builderVars = Set<String>()
        for i in t.indices where t[i].identifier == "CertificatePinner" {
            guard i + 3 < t.count, t[i + 1].isPunct("."), t[i + 2].identifier == "Builder", t[i + 3].isPunct("(") else { continue }
            var j = i - 1
            if j >= 0, t[j].identifier == "new" { j -= 1 }
            guard j >= 1, t[j].isPunct("="), let v = t[j - 1].identifier else { continue }
            // `val b: CertificatePinner.Builder = …` names b, not the type.
            var k = j - 1
            while k >= 2, t[k - 1].isPunct("."), t[k - 2].identifier != nil { k -= 2 }
            if k >= 2, t[k - 1].isPunct(":"), let annotated = t[k - 2].identifier {
                builderVars.insert(annotated)
            } else {
                builderVars.insert(v)
            }
        }
        var calls: [AddCall] = []
        for i in t.indices where t[i].identifier == "add" {
            guard i + 1 < t.count, t[i + 1].isPunct("("), let close = matching(t, i + 1) else { continue }
            var args = split(Array(t[(i + 2)..<close])).filter { !$0.isEmpty }.map(stripNamedArgument)
            let onBuilder = i >= 1 && t[i - 1].isPunct(".")
                ? chainStartsAtBuilder(t, end: i - 2, vars: builderVars)
                : insideApplyOnBuilder(t, at: i, vars: builderVars)
            guard !args.isEmpty else { continue }
            let patternText = resolve(args.removeFirst(), constants: constants)
            var pins: [(value: String?, line: Int)] = []
            for arg in args {
                let line = arg.first?.line ?? t[i].line
                if let items = arrayArgument(arg, constants: constants) {
                    pins += items.map { ($0, line) }
                } else {
                    pins.append((resolve(arg, constants: constants), line))
                }
            }
            let pinLike = pins.contains { $0.value?.hasPrefix("sha256/") == true || $0.value?.hasPrefix("sha1/") == true }
            guard onBuilder || pinLike else { continue }
            if !onBuilder && patternText == nil { continue }
            calls.append(AddCall(line: t[i].line, patternText: patternText, pins: pins))
        }
        return calls
    }

    /// A vararg passed as an array: `*NAME` of an `arrayOf` constant, `*arrayOf(…)`, or Java `new String[] {…}`.
    static func arrayArgument(_ arg: [SourceToken], constants: [String: Constant]) -> [String]? {
        if arg.count == 2, arg[0].isPunct("*"), let name = arg[1].identifier, case .array(let items)? = constants[name] {
            return items
        }
        if arg.count > 2, arg[0].isPunct("*"), let fn = arg[1].identifier, ["arrayOf", "listOf"].contains(fn),
           arg[2].isPunct("("), matching(arg, 2) == arg.count - 1 {
            return stringList(arg, open: 2, close: ")", constants: constants)
        }
        if arg.count > 4, arg[0].identifier == "new", arg[1].identifier == "String", arg[2].isPunct("["),
           arg[3].isPunct("]"), arg[4].isPunct("{"), matching(arg, 4) == arg.count - 1 {
            return stringList(arg, open: 4, close: "}", constants: constants)
        }
        return nil
    }

    static func stripNamedArgument(_ arg: [SourceToken]) -> [SourceToken] {
        if arg.count > 2, arg[0].identifier != nil, arg[1].isPunct("="), !arg[2].isPunct("=") { return Array(arg.dropFirst(2)) }
        return arg
    }

    /// Walks a receiver chain `a.b(…).c(…)` backwards from `end` to see whether it starts at a builder.
    static func chainStartsAtBuilder(_ t: [SourceToken], end: Int, vars: Set<String>) -> Bool {
        var j = end
        while j >= 0 {
            if t[j].isPunct(")") {
                var depth = 0
                while j >= 0 {
                    if t[j].isPunct(")") { depth += 1 }
                    if t[j].isPunct("(") { depth -= 1; if depth == 0 { break } }
                    j -= 1
                }
                j -= 1
                continue
            }
            guard let name = t[j].identifier else { return false }
            if name == "Builder", j >= 2, t[j - 1].isPunct("."), t[j - 2].identifier == "CertificatePinner" { return true }
            if j >= 1, t[j - 1].isPunct(".") { j -= 2; continue }
            return vars.contains(name)
        }
        return false
    }

    /// Whether token `i` sits directly inside `CertificatePinner.Builder().apply { … }` (or `builder.apply { … }`).
    static func insideApplyOnBuilder(_ t: [SourceToken], at i: Int, vars: Set<String>) -> Bool {
        var depth = 0
        var j = i - 1
        while j >= 0 {
            if t[j].isPunct("}") || t[j].isPunct(")") { depth += 1 }
            if t[j].isPunct("(") { depth -= 1 }
            if t[j].isPunct("{") {
                if depth == 0 {
                    guard j >= 2, t[j - 1].identifier == "apply", t[j - 2].isPunct(".") else { return false }
                    return chainStartsAtBuilder(t, end: j - 3, vars: vars)
                }
                depth -= 1
            }
            j -= 1
        }
        return false
    }
}
