/// String constants of one source file (Kotlin, Java, Swift, Objective-C) and the evaluation of constant string
/// expressions: literals (`"…"`, Objective-C `@"…"`), constant names (`NAME`, `Type.NAME`) and `+`.
///
/// Found: `NAME = expr` and `NAME: Type = expr` (Kotlin `val`/`const val`, Java `static final`, Swift `let`,
/// Objective-C `NSString * const NAME = @"…"`), `#define NAME expr`, and arrays (`arrayOf(…)`, `listOf(…)`,
/// Java `{…}`, Swift `[…]`). An expression ends at `;`, `,`, a closing bracket, or the end of its line unless a
/// `+` continues it. A name assigned two different values is not a constant. Values supplied from outside the
/// file (`--define`) fill in names the file does not define.
struct SourceConstants {
    /// A constant's value.
    enum Value: Equatable {
        case string(String)
        case array([String])
    }

    /// Constants by name (dotted names as written, e.g. `BuildConfig.PIN`).
    var values: [String: Value] = [:]
    /// Names supplied from outside the file.
    var defined: Set<String> = []

    /// Scans the file; `defines` are the values supplied from outside it.
    init(_ s: SourceScanner, defines: [String: String] = [:]) {
        for (k, v) in defines { values[k] = .string(v) }
        defined = Set(defines.keys)
        var fromFile: [String: Value] = [:]
        var ambiguous = Set<String>()
        for i in 0..<s.count {
            guard let name = s[i].identifier else { continue }
            var found: (String, Value)?
            var j = i + 1
            if i >= 1, s[i - 1].isPunct("#"), name == "define", i + 2 < s.count, let macro = s[i + 1].identifier,
               s[i + 2].line == s[i + 1].line {
                // `#define NAME expr`: the value runs to the end of the line.
                found = value(s, from: i + 2).map { (macro, $0) }
            } else {
                if j + 1 < s.count, s[j].isPunct(":"), s[j + 1].identifier != nil {
                    j += 2
                    // Swift optionals and Kotlin nullable types: `String?`, `String!`.
                    if j < s.count, s[j].isPunct("?") || s[j].isPunct("!") { j += 1 }
                }
                guard j + 1 < s.count, s[j].isPunct("="), !s[j + 1].isPunct("=") else { continue }
                found = value(s, from: j + 1).map { (name, $0) }
            }
            guard let (key, v) = found else { continue }
            if let old = fromFile[key], old != v { ambiguous.insert(key) }
            fromFile[key] = v
            values[key] = v
        }
        for name in ambiguous { values[name] = defines[name].map(Value.string) }
    }

    /// The value of the expression starting at `start`, when it is a constant.
    func value(_ s: SourceScanner, from start: Int) -> Value? {
        guard start < s.count else { return nil }
        if let fn = s[start].identifier, ["arrayOf", "listOf", "setOf"].contains(fn), start + 1 < s.count, s[start + 1].isPunct("(") {
            return list(s, open: start + 1).map(Value.array)
        }
        var open = start
        if s[open].isPunct("@"), open + 1 < s.count { open += 1 }
        if s[open].isPunct("{") || s[open].isPunct("[") {
            return list(s, open: open).map(Value.array)
        }
        guard let (text, end) = expression(s, from: start) else { return nil }
        return ends(s, at: end) ? .string(text) : nil
    }

    /// The strings of a bracketed list `(…)`, `{…}` or `[…]` whose `open` bracket is at `open`.
    func list(_ s: SourceScanner, open: Int) -> [String]? {
        guard let args = s.arguments(open) else { return nil }
        var out: [String] = []
        for arg in args {
            guard let v = string(s, arg) else { return nil }
            out.append(v)
        }
        return out
    }

    /// The string `range` evaluates to, when it is exactly one constant string expression.
    func string(_ s: SourceScanner, _ range: Range<Int>) -> String? {
        guard !range.isEmpty, let (text, end) = expression(s, from: range.lowerBound), end == range.upperBound else { return nil }
        return text
    }

    /// Operands joined by `+` from `start`: the value and the index after the last operand.
    func expression(_ s: SourceScanner, from start: Int) -> (String, Int)? {
        var out = ""
        var k = start
        while true {
            guard let (part, next) = operand(s, at: k) else { return nil }
            out += part
            k = next
            guard k < s.count, s[k].isPunct("+"), k + 1 < s.count else { return (out, k) }
            k += 1
        }
    }

    /// One literal or constant name at `k`: its value and the index after it.
    func operand(_ s: SourceScanner, at k: Int) -> (String, Int)? {
        guard k < s.count else { return nil }
        var i = k
        if s[i].isPunct("@"), i + 1 < s.count, case .string = s[i + 1].kind { i += 1 }
        switch s[i].kind {
        case .string(let text, let template):
            return template ? nil : (text, i + 1)
        case .identifier:
            let (name, next) = SourceConstants.dottedName(s, at: i)
            if case .string(let v)? = lookup(name) { return (v, next) }
            return nil
        default:
            return nil
        }
    }

    /// The constant `name` (`A.B.NAME` falls back to `NAME`, as the file may define it unqualified).
    func lookup(_ name: String) -> Value? {
        if let v = values[name] { return v }
        if let dot = name.lastIndex(of: ".") { return values[String(name[name.index(after: dot)...])] }
        return nil
    }

    /// Whether an expression ending before `end` is complete there: a terminator, or a new line.
    func ends(_ s: SourceScanner, at end: Int) -> Bool {
        guard end < s.count else { return true }
        let t = s[end]
        if t.isPunct(";") || t.isPunct(",") || t.isPunct(")") || t.isPunct("}") || t.isPunct("]") { return true }
        return end > 0 && t.line > s[end - 1].line && !t.isPunct(".")
    }

    /// Identifiers of `range` that name no known constant (for "unresolved" findings).
    func unresolved(_ s: SourceScanner, _ range: Range<Int>) -> [String] {
        var out: [String] = []
        var k = range.lowerBound
        while k < range.upperBound {
            // Arguments of calls are not constants either way; jumping over them keeps nested calls linear.
            if let close = s.matching(k), close < range.upperBound { k = close + 1; continue }
            guard s[k].identifier != nil, k == range.lowerBound || !s[k - 1].isPunct(".") else { k += 1; continue }
            let (name, next) = SourceConstants.dottedName(s, at: k)
            if lookup(name) == nil, !out.contains(name) { out.append(name) }
            k = max(next, k + 1)
        }
        return out
    }

    /// `A.B.C` starting at identifier `k`: the name and the index after it.
    static func dottedName(_ s: SourceScanner, at k: Int) -> (String, Int) {
        var name = s[k].identifier ?? ""
        var i = k + 1
        while i + 1 < s.count, s[i].isPunct("."), let part = s[i + 1].identifier {
            name += "." + part
            i += 2
        }
        return (name, i)
    }
}
