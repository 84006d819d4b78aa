import Foundation
import PinGuardCore

/// OkHttp `CertificatePinner.Builder().add(pattern, pins…)` calls in Kotlin or Java source.
///
/// OkHttp validates the chain with the platform trust manager, then requires one `sha256/` pin to match the
/// SPKI of any certificate of the cleaned chain. A host gets the pins of *every* pattern that matches it, so
/// each imported rule carries the pins of the broader patterns that contain it (and a host where `*.d` and
/// `**.x.d` meet gets an exact rule of its own). Arguments may be string literals, `+` concatenations and
/// `val`/`const val`/`static final String` constants of the same file, `*arrayOf(…)` spreads (also of constants)
/// and Java `new String[] {…}` arrays.
enum OkHttpImporter {
    /// One accepted `add(…)` call.
    struct AddCall {
        var line: Int
        var patternText: String?
        var pins: [(value: String?, line: Int, unresolved: [String])]
        /// Names in the pattern argument that no constant defines.
        var unresolved: [String] = []
    }

    /// The calls for one pattern (OkHttp accumulates pins of repeated patterns).
    struct PatternGroup {
        var pattern: HostPattern
        var lines: [Int]
        var pins: DistinctPins
    }

    static func run(_ bytes: [UInt8], defines: [String: String] = [:], into draft: inout ImportDraft) throws(ImportError) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("CertificatePinner") else {
            throw ImportError(file: draft.file, line: nil, message: "no CertificatePinner in this file")
        }
        let kotlin = !draft.file.lowercased().hasSuffix(".java")
        let scanner = SourceScanner(try SourceTokenizer.tokenize(text, kotlin: kotlin, file: draft.file))
        let constants = SourceConstants(scanner, defines: defines, inputBytes: bytes.count)
        try constants.budget.check(file: draft.file)
        let calls = findAddCalls(scanner, constants: constants)
        try constants.budget.check(file: draft.file)
        for n in constants.notes { draft.note(.warning, line: n.line, n.message) }
        if calls.isEmpty {
            try unpinned(scanner, text: text, draft: &draft)
            return
        }
        var groups: [PatternGroup] = []
        var index: [HostPattern: Int] = [:]
        // Apps repeat the same few pins across many calls: decode each distinct text once.
        var decoded: [String: String] = [:]
        for call in calls {
            guard let patternText = call.patternText else {
                draft.note(.warning, line: call.line,
                           "the pattern of this add() is not a constant string\(unresolvedNote(call.unresolved)); call not imported")
                draft.needs(call.unresolved)
                // The pins are not imported either, but what they need is named too, so one --define run does.
                for arg in call.pins where arg.value == nil { _ = pin(nil, line: arg.line, unresolved: arg.unresolved, draft: &draft) }
                continue
            }
            guard let pattern = draft.pattern(patternText, line: call.line) else { continue }
            var pins = DistinctPins()
            for arg in call.pins {
                if let value = arg.value, let hash = decoded[value] {
                    draft.append(Pin(type: .spki, hash: hash, role: .primary, scope: .any, line: arg.line), to: &pins)
                } else if let pin = pin(arg.value, line: arg.line, unresolved: arg.unresolved, draft: &draft) {
                    if let value = arg.value, "sha256/" + pin.hash == value { decoded[value] = pin.hash }
                    draft.append(pin, to: &pins)
                }
            }
            if let i = index[pattern] {
                groups[i].lines.append(call.line)
                for p in pins.pins { groups[i].pins.insert(p) }
            } else {
                index[pattern] = groups.count
                groups.append(PatternGroup(pattern: pattern, lines: [call.line], pins: pins))
            }
        }
        try emit(groups, draft: &draft)
    }

    /// `" (NAME unresolved: not defined in this file; supply it with --define NAME=VALUE)"`, every name listed, or nothing.
    static func unresolvedNote(_ names: [String]) -> String {
        guard !names.isEmpty else { return "" }
        let list = names.joined(separator: ", ")
        return " (\(list) unresolved: not defined in this file; supply \(names.count == 1 ? "it" : "them") with --define NAME=VALUE)"
    }

    /// Turns one resolved pin argument into a pin, or records why not.
    static func pin(_ value: String?, line: Int, unresolved: [String] = [], draft: inout ImportDraft) -> Pin? {
        guard let value else {
            draft.note(.warning, line: line, "pin argument is not a constant string\(unresolvedNote(unresolved)); not imported")
            draft.needs(unresolved)
            return nil
        }
        guard let algorithm = [PinHashAlgorithm.sha256, .sha1].first(where: { value.hasPrefix($0.prefix) }) else {
            draft.note(.error, line: line,
                       "\(EchoedInput.quoted(value)): OkHttp pins must start with sha256/ or sha1/ (OkHttp throws IllegalArgumentException); not imported")
            return nil
        }
        // OkHttp 3 and 4 match a sha1/ pin against the SHA-1 of each certificate's SubjectPublicKeyInfo.
        let body = String(value.dropFirst(algorithm.prefix.count))
        let size = algorithm.digestBytes
        guard let bytes = ImportSupport.lenientBase64(body), bytes.count == size else {
            let name = algorithm == .sha1 ? "SHA-1" : "SHA-256"
            draft.note(.error, line: line, "\(EchoedInput.quoted(value)) is not base64 of a \(size)-byte \(name) digest; not imported")
            return nil
        }
        let hash = Base64.encode(bytes)
        if hash != body { draft.note(.info, line: line, "non-canonical base64 \(EchoedInput.quoted(body)) read as \(hash), as OkHttp does") }
        return Pin(type: .spki, hash: hash, algorithm: algorithm, role: .primary, scope: .any, line: line)
    }

    /// The rules of `groups`, each with the pins of every pattern containing it; refused as soon as they would hold
    /// more rules or pins than an import produces (`ImportDraft.tooMany`), before the copies are made.
    static func emit(_ groups: [PatternGroup], draft: inout ImportDraft) throws(ImportError) {
        func lines(_ g: PatternGroup) -> String { g.lines.map(String.init).joined(separator: ", ") }
        // Patterns containing a pattern have its domain or a parent domain: look those up instead of trying all.
        var byDomain: [String: [Int]] = [:]
        for (k, g) in groups.enumerated() { byDomain[g.pattern.domain, default: []].append(k) }
        func candidates(_ domain: String) -> [PatternGroup] {
            var out: [PatternGroup] = []
            var d = Substring(domain)
            while true {
                out += (byDomain[String(d)] ?? []).map { groups[$0] }
                guard let dot = d.firstIndex(of: ".") else { return out }
                d = d[d.index(after: dot)...]
            }
        }
        var rules: [(HostPattern, Int, [Pin], [String])] = []
        var ruled = Set<HostPattern>()
        var emitted = 0
        func keep(_ rule: (HostPattern, Int, [Pin], [String])) throws(ImportError) {
            emitted += rule.2.count
            guard rules.count < ImportLimits.maxImportedRules, emitted <= ImportLimits.maxImportedPins else {
                throw draft.tooMany(rules: rules.count >= ImportLimits.maxImportedRules, line: rule.1)
            }
            rules.append(rule)
        }
        for g in groups {
            var pins = g.pins
            var origin = g.lines.map { "\(draft.position($0)) .add(\"\(g.pattern)\", …)" }
            if g.lines.count > 1 { origin.append("repeated pattern: OkHttp accepts the pins of every add() call") }
            for other in candidates(g.pattern.domain) where other.pattern != g.pattern && g.pattern.isContained(in: other.pattern) {
                let extra = other.pins.pins.filter { !pins.contains($0) }
                guard !extra.isEmpty else { continue }
                for p in extra { pins.insert(p) }
                origin.append("plus the pins of \(other.pattern) (line \(lines(other))): OkHttp applies every matching pattern")
            }
            try keep((g.pattern, g.lines[0], pins.pins, origin))
            ruled.insert(g.pattern)
        }
        // `*.d` and `**.x.d` both match exactly the host `x.d`, which neither contains; give it an exact rule.
        for deep in groups {
            guard case .anyDepth(let e) = deep.pattern, let dot = e.firstIndex(of: ".") else { continue }
            let d = String(e[e.index(after: dot)...])
            for one in candidates(d) {
                guard case .oneLabel(d) = one.pattern else { continue }
                let host = HostPattern.exact(e)
                guard !ruled.contains(host) else { continue }
                ruled.insert(host)
                let matching = candidates(e).filter { $0.pattern.matches(e) }
                var pins = DistinctPins()
                for g in matching { for p in g.pins.pins { pins.insert(p) } }
                let origin = ["host \(e) matches " + matching.map { "\($0.pattern) (line \(lines($0)))" }.joined(separator: " and ") +
                              ": OkHttp applies the pins of all of them"]
                try keep((host, min(one.lines[0], deep.lines[0]), pins.pins, origin))
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

    /// Every `add(…)` on a `CertificatePinner.Builder` (chained, through a variable, or inside `.apply { }`),
    /// and any other `add(…)` whose arguments are `sha256/`/`sha1/` pins.
    static func findAddCalls(_ t: SourceScanner, constants: SourceConstants) -> [AddCall] {
        var builderVars = Set<String>()
        for i in 0..<t.count where t[i].identifier == "CertificatePinner" {
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
        var chains = ChainMemo()
        var calls: [AddCall] = []
        for i in 0..<t.count where t[i].identifier == "add" {
            guard i + 1 < t.count, t[i + 1].isPunct("("), var args = t.arguments(i + 1) else { continue }
            args = args.map { stripNamedArgument(t, $0) }
            let onBuilder = i >= 1 && t[i - 1].isPunct(".")
                ? chains.startsAtBuilder(t, end: i - 2, vars: builderVars)
                : insideApplyOnBuilder(t, at: i, vars: builderVars, chains: &chains)
            guard !args.isEmpty else { continue }
            let first = args.removeFirst()
            let patternText = constants.string(t, first)
            var pins: [(value: String?, line: Int, unresolved: [String])] = []
            for arg in args {
                let line = t[arg.lowerBound].line
                if let items = arrayArgument(t, arg, constants: constants) {
                    pins += items.map { ($0, line, []) }
                } else {
                    let value = constants.string(t, arg)
                    pins.append((value, line, value == nil ? constants.unresolved(t, arg) : []))
                }
            }
            let pinLike = pins.contains { $0.value?.hasPrefix("sha256/") == true || $0.value?.hasPrefix("sha1/") == true }
            guard onBuilder || pinLike else { continue }
            if !onBuilder && patternText == nil { continue }
            calls.append(AddCall(line: t[i].line, patternText: patternText, pins: pins,
                                 unresolved: patternText == nil ? constants.unresolved(t, first) : []))
        }
        return calls
    }

    /// A vararg passed as an array: `*NAME` of an `arrayOf` constant, `*arrayOf(…)`, or Java `new String[] {…}`.
    static func arrayArgument(_ t: SourceScanner, _ arg: Range<Int>, constants: SourceConstants) -> [String]? {
        let a = arg.lowerBound
        let last = arg.upperBound - 1
        if arg.count == 2, t[a].isPunct("*"), let name = t[a + 1].identifier,
           let items = constants.spread(name, line: t[a].line) {
            return items
        }
        if arg.count > 2, t[a].isPunct("*"), let fn = t[a + 1].identifier, ["arrayOf", "listOf"].contains(fn),
           t[a + 2].isPunct("("), t.matching(a + 2) == last {
            return constants.list(t, open: a + 2)
        }
        if arg.count > 4, t[a].identifier == "new", t[a + 1].identifier == "String", t[a + 2].isPunct("["),
           t[a + 3].isPunct("]"), t[a + 4].isPunct("{"), t.matching(a + 4) == last {
            return constants.list(t, open: a + 4)
        }
        return nil
    }

    /// Drops a Kotlin named-argument label (`pattern = …`).
    static func stripNamedArgument(_ t: SourceScanner, _ arg: Range<Int>) -> Range<Int> {
        let a = arg.lowerBound
        if arg.count > 2, t[a].identifier != nil, t[a + 1].isPunct("="), !t[a + 2].isPunct("=") { return (a + 2)..<arg.upperBound }
        return arg
    }

    /// Answers "does the receiver chain ending at token `end` start at a builder?", remembering every chain
    /// position it walks through: a chain of n calls is walked once, not n times.
    struct ChainMemo {
        var known: [Int: Bool] = [:]

        /// Walks `a.b(…).c(…)` backwards from `end` (jumping over each call's arguments).
        mutating func startsAtBuilder(_ t: SourceScanner, end: Int, vars: Set<String>) -> Bool {
            var visited: [Int] = []
            var j = end
            var answer = false
            while j >= 0 {
                if let k = known[j] { answer = k; break }
                visited.append(j)
                if t[j].isPunct(")") {
                    guard let open = t.opening(j) else { break }
                    j = open - 1
                    continue
                }
                guard let name = t[j].identifier else { break }
                if name == "Builder", j >= 2, t[j - 1].isPunct("."), t[j - 2].identifier == "CertificatePinner" { answer = true; break }
                if j >= 1, t[j - 1].isPunct(".") { j -= 2; continue }
                answer = vars.contains(name)
                break
            }
            for v in visited { known[v] = answer }
            return answer
        }
    }

    /// Whether token `i` sits directly inside `CertificatePinner.Builder().apply { … }` (or `builder.apply { … }`).
    static func insideApplyOnBuilder(_ t: SourceScanner, at i: Int, vars: Set<String>, chains: inout ChainMemo) -> Bool {
        guard let j = t.enclosing(i), t[j].isPunct("{"), j >= 2, t[j - 1].identifier == "apply", t[j - 2].isPunct(".") else {
            return false
        }
        return chains.startsAtBuilder(t, end: j - 3, vars: vars)
    }
}
