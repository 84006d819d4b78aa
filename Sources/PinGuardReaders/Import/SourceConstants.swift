import Foundation
import PinGuardCore

/// String constants of one source file (Kotlin, Java, Swift, Objective-C) and the evaluation of constant string
/// expressions: literals (`"…"`, Objective-C `@"…"`), constant names (`NAME`, `Type.NAME`), `+`, and the few calls
/// apps build hosts and pins with (the host of a URL, `String.format`; see `call`).
///
/// Found: `NAME = expr` and `NAME: Type = expr` (Kotlin `val`/`const val`, Java `static final`, Swift `let`,
/// Objective-C `NSString * const NAME = @"…"`), `#define NAME expr`, and arrays (`arrayOf(…)`, `listOf(…)`,
/// Java `{…}`, Swift `[…]`). An expression ends at `;`, `,`, a closing bracket, or the end of its line unless a
/// `+` continues it. A name assigned two different values is not a constant. Values supplied from outside the
/// file (`--define`) fill in names the file does not define.
///
/// Resolution is bounded: a value longer than `ImportLimits.maxResolvedStringBytes` leaves its constant (and every
/// constant built from it) unresolved with a warning in `notes`, and all evaluations together may produce at most
/// `budget.limit` bytes, after which they fail and the importer refuses the file (`budget.check`).
struct SourceConstants {
    /// A constant's value.
    enum Value: Equatable {
        case string(String)
        case array([String])
    }

    /// What evaluating an expression gave.
    enum Resolution<T> {
        /// The value, and the index after the expression.
        case value(T, end: Int)
        /// Not a constant expression (or the resolution budget is spent).
        case notConstant
        /// Longer than `ImportLimits.maxResolvedStringBytes`; `inherited` when because a constant it names is.
        case tooLong(inherited: Bool)
    }

    /// Constants by name (dotted names as written, e.g. `BuildConfig.PIN`).
    var values: [String: Value] = [:]
    /// Names supplied from outside the file.
    var defined: Set<String> = []
    /// Names the file defines with a value too long to resolve: known, but never resolved.
    private(set) var oversized: Set<String> = []
    /// Warnings about constants left unresolved, by line, for the importer to record.
    private(set) var notes: [(line: Int, message: String)] = []
    /// What every evaluation of this file is charged to.
    let budget: SourceResolutionBudget
    /// What listing the undefined names of expressions is charged to (`unresolved`).
    let nameScan: SourceNameScanBudget

    /// Scans the file; `defines` are the values supplied from outside it, `inputBytes` the size of the file.
    init(_ s: SourceScanner, defines: [String: String] = [:], inputBytes: Int) {
        budget = SourceResolutionBudget(inputBytes: defines.reduce(inputBytes) { $0 + $1.key.utf8.count + $1.value.utf8.count })
        nameScan = SourceNameScanBudget(tokens: s.count)
        for (k, v) in defines { values[k] = .string(v) }
        defined = Set(defines.keys)
        var fromFile: [String: Value] = [:]
        var ambiguous = Set<String>()
        for i in 0..<s.count {
            guard let (key, start) = SourceConstants.definition(s, at: i) else { continue }
            switch value(s, from: start) {
            case .value(let v, _):
                if let old = fromFile[key], old != v { ambiguous.insert(key) }
                fromFile[key] = v
                values[key] = v
            case .tooLong(let inherited):
                oversized.insert(key)
                if !inherited {
                    notes.append((s[i].line, "\(key) is longer than \(ImportLimits.maxResolvedStringBytes) bytes once resolved; "
                                    + "left unresolved, with every constant built from it"))
                }
            case .notConstant:
                continue
            }
        }
        for name in ambiguous.union(oversized.intersection(fromFile.keys)) { values[name] = defines[name].map(Value.string) }
    }

    /// The name defined at token `i` and where its value starts: `#define NAME expr`, `NAME = expr`, `NAME: T = expr`
    /// (where `T` is a type, not a name being defined).
    static func definition(_ s: SourceScanner, at i: Int) -> (String, Int)? {
        guard let name = s[i].identifier, i == 0 || !s[i - 1].isPunct(":") else { return nil }
        if i >= 1, s[i - 1].isPunct("#"), name == "define", i + 2 < s.count, let macro = s[i + 1].identifier,
           s[i + 2].line == s[i + 1].line {
            // `#define NAME expr`: the value runs to the end of the line.
            return (macro, i + 2)
        }
        var j = i + 1
        if j + 1 < s.count, s[j].isPunct(":"), s[j + 1].identifier != nil {
            j += 2
            // Swift optionals and Kotlin nullable types: `String?`, `String!`.
            if j < s.count, s[j].isPunct("?") || s[j].isPunct("!") { j += 1 }
        }
        guard j + 1 < s.count, s[j].isPunct("="), !s[j + 1].isPunct("=") else { return nil }
        return (name, j + 1)
    }

    /// The value of the expression starting at `start`, when it is a constant.
    func value(_ s: SourceScanner, from start: Int) -> Resolution<Value> {
        guard start < s.count else { return .notConstant }
        if let fn = s[start].identifier, ["arrayOf", "listOf", "setOf"].contains(fn), start + 1 < s.count, s[start + 1].isPunct("(") {
            return items(s, open: start + 1).map(Value.array)
        }
        var open = start
        if s[open].isPunct("@"), open + 1 < s.count { open += 1 }
        if s[open].isPunct("{") || s[open].isPunct("[") {
            return items(s, open: open).map(Value.array)
        }
        let resolved = resolve(s, from: start)
        if case .value(_, let end) = resolved, !ends(s, at: end) { return .notConstant }
        return resolved.map(Value.string)
    }

    /// The strings of a bracketed list `(…)`, `{…}` or `[…]` whose `open` bracket is at `open`.
    func list(_ s: SourceScanner, open: Int) -> [String]? {
        if case .value(let out, _) = items(s, open: open) { return out }
        return nil
    }

    /// The strings of the list at `open`, or why it is not a constant list.
    func items(_ s: SourceScanner, open: Int) -> Resolution<[String]> {
        guard let close = s.matching(open), let args = s.arguments(open) else { return .notConstant }
        var out: [String] = []
        for arg in args {
            switch resolve(s, from: arg.lowerBound) {
            case .value(let v, let end) where end == arg.upperBound: out.append(v)
            case .tooLong(let inherited): return .tooLong(inherited: inherited)
            default: return .notConstant
            }
        }
        return .value(out, end: close + 1)
    }

    /// The items of array constant `name` for a `*name` spread; each spread copies them, so it is charged. A name
    /// supplied with `--define` is one string: spread, it is the list of its comma-separated items.
    func spread(_ name: String, line: Int) -> [String]? {
        guard !budget.isExhausted, let value = lookup(name) else { return nil }
        let items: [String]
        switch value {
        case .array(let list): items = list
        case .string(let text):
            guard defined.contains(name) || defined.contains(String(name.split(separator: ".").last ?? "")) else { return nil }
            items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let bytes = items.reduce(items.count) { $0 + $1.utf8.count }
        return budget.charge(bytes, line: line) ? items : nil
    }

    /// The string `range` evaluates to, when it is exactly one constant string expression.
    func string(_ s: SourceScanner, _ range: Range<Int>) -> String? {
        guard !range.isEmpty, let (text, end) = expression(s, from: range.lowerBound), end == range.upperBound else { return nil }
        return text
    }

    /// Operands joined by `+` from `start`: the value and the index after the last operand.
    func expression(_ s: SourceScanner, from start: Int) -> (String, Int)? {
        if case .value(let text, let end) = resolve(s, from: start) { return (text, end) }
        return nil
    }

    /// Operands joined by `+` from `start`, each charged to the budget, the whole at most
    /// `ImportLimits.maxResolvedStringBytes` long; `depth` counts the evaluated calls (`URI(…)`) around it.
    func resolve(_ s: SourceScanner, from start: Int, depth: Int = 0) -> Resolution<String> {
        var out = ""
        var k = start
        while true {
            let resolved = operand(s, at: k, depth: depth)
            guard case .value(let part, let next) = resolved else { return resolved }
            guard out.utf8.count + part.utf8.count <= ImportLimits.maxResolvedStringBytes else { return .tooLong(inherited: false) }
            guard budget.charge(part.utf8.count, line: s[k].line) else { return .notConstant }
            out += part
            k = next
            guard k < s.count, s[k].isPunct("+"), k + 1 < s.count else { return .value(out, end: k) }
            k += 1
        }
    }

    /// One literal, constant name or evaluated call at `k`: its value and the index after it.
    func operand(_ s: SourceScanner, at k: Int, depth: Int = 0) -> Resolution<String> {
        guard k < s.count else { return .notConstant }
        var i = k
        if s[i].isPunct("@"), i + 1 < s.count, case .string = s[i + 1].kind { i += 1 }
        // Java's `new URI(…)` is evaluated as Kotlin's `URI(…)`.
        if s[i].identifier == "new", i + 1 < s.count, s[i + 1].identifier != nil { i += 1 }
        switch s[i].kind {
        case .string(let text, let template):
            return template ? .notConstant : .value(text, end: i + 1)
        case .identifier:
            let (name, next) = SourceConstants.dottedName(s, at: i)
            if next < s.count, s[next].isPunct("("), let evaluated = call(name, s, open: next, depth: depth) { return evaluated }
            if case .string(let v)? = lookup(name) { return .value(v, end: next) }
            return lookup(name) == nil && isOversized(name) ? .tooLong(inherited: true) : .notConstant
        default:
            return .notConstant
        }
    }

    /// The constant `name` (`A.B.NAME` falls back to `NAME`, as the file may define it unqualified).
    func lookup(_ name: String) -> Value? {
        if let v = values[name] { return v }
        if let dot = name.lastIndex(of: ".") { return values[String(name[name.index(after: dot)...])] }
        return nil
    }

    /// Whether `name` (or, for `A.B.NAME`, `NAME`) is defined with a value too long to resolve.
    func isOversized(_ name: String) -> Bool {
        guard !oversized.isEmpty else { return false }
        if oversized.contains(name) { return true }
        return name.lastIndex(of: ".").map { oversized.contains(String(name[name.index(after: $0)...])) } ?? false
    }

    /// Whether an expression ending before `end` is complete there: a terminator, or a new line.
    func ends(_ s: SourceScanner, at end: Int) -> Bool {
        guard end < s.count else { return true }
        let t = s[end]
        if t.isPunct(";") || t.isPunct(",") || t.isPunct(")") || t.isPunct("}") || t.isPunct("]") { return true }
        return end > 0 && t.line > s[end - 1].line && !t.isPunct(".")
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

extension SourceConstants.Resolution {
    /// The same resolution with its value transformed.
    func map<U>(_ f: (T) -> U) -> SourceConstants.Resolution<U> {
        switch self {
        case .value(let v, let end): return .value(f(v), end: end)
        case .notConstant: return .notConstant
        case .tooLong(let inherited): return .tooLong(inherited: inherited)
        }
    }
}
