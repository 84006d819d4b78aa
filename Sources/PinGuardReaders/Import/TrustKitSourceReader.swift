import PinGuardCore

/// Reads a TrustKit configuration written in code: the dictionary literal passed to
/// `TrustKit.initSharedInstance(withConfiguration:)` (Swift) or `[TrustKit initSharedInstanceWithConfiguration:]`
/// (Objective-C), or to TrustKit's first API, still in shipped apps, `TrustKit.initialize(withConfiguration:)` and
/// `[TrustKit initializeWithConfiguration:]`, directly or through a variable of the same file.
///
/// Keys are string literals or TrustKit's constants (`kTSKPinnedDomains` is `"TSKPinnedDomains"`); values are
/// literals (`"…"`, `@"…"`, `true`/`YES`/`@YES`/`@(YES)`, numbers), nested literals, and constants of the file or
/// supplied with `--define`. The result is the same `PlistNode` tree an Info.plist gives, with source lines, so the
/// plist and code configurations go through the same TrustKit rules. What cannot be resolved is a warning naming
/// its line and is left out, as TrustKit would never see a value pinguard cannot read. Literals nested deeper than
/// `ImportLimits.maxNestingDepth`, or holding more than `ImportLimits.maxNodes` values, are refused.
struct TrustKitSourceReader {
    let scanner: SourceScanner
    let constants: SourceConstants
    let file: String
    /// Values (keys included) read so far, against `ImportLimits.maxNodes`.
    var values = 0

    static let entryPoints: Set<String> = ["initSharedInstance", "initSharedInstanceWithConfiguration", "initializeWithConfiguration"]

    /// Whether token `k` names a call that configures TrustKit: one of `entryPoints`, or Swift's
    /// `initialize(withConfiguration:` (a plain `initialize` is too common a name to count alone).
    func isEntryPoint(_ k: Int) -> Bool {
        guard let name = scanner[k].identifier else { return false }
        if TrustKitSourceReader.entryPoints.contains(name) { return true }
        return name == "initialize" && k + 3 < scanner.count && scanner[k + 1].isPunct("(")
            && scanner[k + 2].identifier == "withConfiguration" && scanner[k + 3].isPunct(":")
    }

    /// Whether `bytes` look like Swift or Objective-C source rather than a property list or JSON.
    static func looksLikeSource(_ bytes: [UInt8], file: String) -> Bool {
        let lower = file.lowercased()
        if [".swift", ".m", ".mm", ".h"].contains(where: { lower.hasSuffix($0) }) { return true }
        let first = bytes.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        guard let f = first, f != UInt8(ascii: "<"), f != UInt8(ascii: "{"), f != UInt8(ascii: "["),
              !bytes.starts(with: Array("bplist".utf8)) else { return false }
        let text = String(decoding: bytes.prefix(65_536), as: UTF8.self)
        return ["import ", "#import", "#include", "TrustKit", "kTSK", "let ", "@{"].contains { text.contains($0) }
    }

    /// Reads the configuration dictionary, recording unresolved values in `draft`.
    static func read(_ bytes: [UInt8], defines: [String: String], draft: inout ImportDraft) throws(ImportError) -> PlistNode {
        let text = String(decoding: bytes, as: UTF8.self)
        let scanner = SourceScanner(try SourceTokenizer.tokenize(text, kotlin: false, file: draft.file))
        let constants = SourceConstants(scanner, defines: defines, inputBytes: bytes.count)
        try constants.budget.check(file: draft.file)
        var reader = TrustKitSourceReader(scanner: scanner, constants: constants, file: draft.file)
        guard let call = (0..<scanner.count).first(where: reader.isEntryPoint) else {
            throw ImportError(file: draft.file, line: nil,
                              message: "source file without a TrustKit initSharedInstance(withConfiguration:) or initialize(withConfiguration:) call; nothing to import")
        }
        guard let start = reader.argumentStart(after: call) else {
            throw ImportError(file: draft.file, line: scanner[call].line, message: "cannot find the configuration passed to \(scanner[call].identifier ?? "")")
        }
        let literal: Int
        if let name = scanner[start].identifier {
            guard let found = reader.assignment(of: name, before: call) else {
                throw ImportError(file: draft.file, line: scanner[start].line,
                                  message: "the configuration \(name) is not a dictionary literal assigned in this file; nothing to import")
            }
            literal = found
        } else {
            literal = start
        }
        let root = try reader.node(at: literal, depth: 1, draft: &draft)
        try constants.budget.check(file: draft.file)
        for n in constants.notes { draft.note(.warning, line: n.line, n.message) }
        guard let root, root.entries != nil else {
            throw ImportError(file: draft.file, line: scanner[literal].line, message: "the TrustKit configuration is not a dictionary literal")
        }
        return root
    }

    /// The first token of the configuration argument of the call named at `call`.
    func argumentStart(after call: Int) -> Int? {
        var k = call + 1
        // Swift: `(withConfiguration: X)`; Objective-C: `WithConfiguration: X]` or `initSharedInstanceWithConfiguration:X`.
        if k < scanner.count, scanner[k].isPunct("(") { k += 1 }
        if k + 1 < scanner.count, scanner[k].identifier != nil, scanner[k + 1].isPunct(":") { k += 2 }
        if k < scanner.count, scanner[k].isPunct(":") { k += 1 }
        return k < scanner.count ? k : nil
    }

    /// The literal assigned to `name` last before `limit`: `name = [ … ]`, `name: T = [ … ]`, `*name = @{ … }`.
    func assignment(of name: String, before limit: Int) -> Int? {
        var best: Int?
        for i in 0..<limit where scanner[i].identifier == name {
            var j = i + 1
            if j < scanner.count, scanner[j].isPunct(":") {
                // Skip a type annotation, `[String: Any]` included.
                j += 1
                while j < limit, !scanner[j].isPunct("=") {
                    if let close = scanner.matching(j) { j = close }
                    j += 1
                    if j - i > 64 { break }
                }
            }
            guard j + 1 < limit, scanner[j].isPunct("="), !scanner[j + 1].isPunct("=") else { continue }
            let v = j + 1
            if scanner[v].isPunct("[") || (scanner[v].isPunct("@") && v + 1 < scanner.count && scanner[v + 1].isPunct("{")) {
                best = v
            }
        }
        return best
    }

    /// The value at `k`, `depth` levels of literals deep, as a `PlistNode`, or nil (with a warning) when it is not
    /// a literal or known constant. Throws when the literal is nested too deep or holds too many values.
    mutating func node(at k: Int, depth: Int, draft: inout ImportDraft) throws(ImportError) -> PlistNode? {
        guard k < scanner.count else { return nil }
        values += 1
        if values > ImportLimits.maxNodes { throw ImportSupport.tooManyNodes(file: file, line: scanner[k].line) }
        let line = scanner[k].line
        var i = k
        // Objective-C boxing: `@{`, `@[`, `@YES`, `@(YES)`, `@"…"`.
        if scanner[i].isPunct("@"), i + 1 < scanner.count {
            i += 1
            if scanner[i].isPunct("("), let close = scanner.matching(i), close == i + 2 { i += 1 }
        }
        let tok = scanner[i]
        if tok.isPunct("{") || tok.isPunct("[") {
            guard depth <= ImportLimits.maxNestingDepth else { throw ImportSupport.tooDeep(file: file, line: tok.line) }
            return try container(open: i, objc: tok.isPunct("{"), depth: depth, draft: &draft)
        }
        if let id = tok.identifier {
            switch id {
            case "true", "YES": return PlistNode(value: .bool(true), line: line)
            case "false", "NO": return PlistNode(value: .bool(false), line: line)
            default: break
            }
        }
        if case .literal = tok.kind { return PlistNode(value: .integer(0), line: line) }
        if let value = TrustKitSourceReader.keyName(scanner, at: i, constants: constants) { return PlistNode(value: .string(value), line: line) }
        return nil
    }

    /// A dictionary or array literal whose bracket is at `open`, `depth` levels deep.
    mutating func container(open: Int, objc: Bool, depth: Int, draft: inout ImportDraft) throws(ImportError) -> PlistNode? {
        guard let args = scanner.arguments(open) else { return nil }
        let line = scanner[open].line
        if args.isEmpty {
            // `[:]` is an empty Swift dictionary, `@{}` an empty Objective-C one.
            let colon = open + 1 < scanner.count && scanner[open + 1].isPunct(":")
            return PlistNode(value: objc || colon ? .dictionary([]) : .array([]), line: line)
        }
        let pairs = args.map { ($0, colon(in: $0)) }
        if pairs.contains(where: { $0.1 != nil }) {
            var entries: [PlistNode.Entry] = []
            for (range, sep) in pairs {
                let keyLine = scanner[range.lowerBound].line
                guard let sep, let key = TrustKitSourceReader.keyName(scanner, at: skipAt(range.lowerBound), constants: constants),
                      sep == keyEnd(range.lowerBound) else {
                    draft.note(.warning, line: keyLine, "dictionary key is not a string literal or known constant\(unresolvedNote(range, draft: &draft)); entry ignored")
                    continue
                }
                values += 1
                guard let value = try node(at: sep + 1, depth: depth + 1, draft: &draft), valueEnds(sep + 1, range.upperBound) else {
                    draft.note(.warning, line: scanner[min(sep + 1, range.upperBound - 1)].line,
                               "value of \(key) is not a literal or known constant\(unresolvedNote((sep + 1)..<range.upperBound, draft: &draft)); entry ignored")
                    continue
                }
                entries.append(PlistNode.Entry(key: key, keyLine: keyLine, value: value))
            }
            return PlistNode(value: .dictionary(entries), line: line)
        }
        var items: [PlistNode] = []
        for range in args {
            guard let item = try node(at: range.lowerBound, depth: depth + 1, draft: &draft), valueEnds(range.lowerBound, range.upperBound) else {
                draft.note(.warning, line: scanner[range.lowerBound].line,
                           "array item is not a literal or known constant\(unresolvedNote(range, draft: &draft)); item ignored")
                continue
            }
            items.append(item)
        }
        return PlistNode(value: .array(items), line: line)
    }

    /// `" (NAME, … unresolved: …)"` for every name in `range` no constant defines, which `draft` also collects.
    func unresolvedNote(_ range: Range<Int>, draft: inout ImportDraft) -> String {
        let names = constants.unresolved(scanner, range)
        guard !names.isEmpty else { return "" }
        draft.needs(names)
        return " (\(names.joined(separator: ", ")) unresolved: not defined in this file; supply with --define NAME=VALUE)"
    }

    /// The index of the top-level `:` of a dictionary element.
    func colon(in range: Range<Int>) -> Int? {
        var k = range.lowerBound
        while k < range.upperBound {
            if scanner[k].isPunct(":") { return k }
            if let close = scanner.matching(k), close < range.upperBound { k = close }
            k += 1
        }
        return nil
    }

    func skipAt(_ k: Int) -> Int { scanner[k].isPunct("@") ? k + 1 : k }

    /// Where a key expression starting at `k` ends (after a literal, a dotted name or a `+` chain).
    func keyEnd(_ k: Int) -> Int {
        if let (_, end) = constants.expression(scanner, from: k) { return end }
        let s = skipAt(k)
        if scanner[s].identifier != nil { return SourceConstants.dottedName(scanner, at: s).1 }
        return s + 1
    }

    /// Whether the value starting at `start` is one whole element ending at `end`.
    func valueEnds(_ start: Int, _ end: Int) -> Bool {
        var k = start
        if scanner[k].isPunct("@"), k + 1 < end { k += 1 }
        if let close = scanner.matching(k) { return close + 1 == end }
        if case .string = scanner[k].kind, let (_, e) = constants.expression(scanner, from: start) { return e == end }
        if scanner[k].identifier != nil {
            let (_, e) = SourceConstants.dottedName(scanner, at: k)
            if let (_, e2) = constants.expression(scanner, from: start), e2 == end { return true }
            return e == end
        }
        return k + 1 == end
    }

    /// A string key or value at `k`: a literal or `+` expression, a `kTSK…` constant (TrustKit's own names), or a
    /// constant of the file.
    static func keyName(_ s: SourceScanner, at k: Int, constants: SourceConstants? = nil) -> String? {
        if let id = s[k].identifier, id.hasPrefix("kTSK") { return String(id.dropFirst()) }
        if let constants, let (v, _) = constants.expression(s, from: k) { return v }
        if case .string(let v, let template) = s[k].kind, !template { return v }
        return nil
    }
}
