import PinGuardCore

/// OkHttp source without an `add(…)` call: a file that pins nothing as apps ship it (the pinner commented out,
/// `CertificatePinner.Builder().build()` with no pins, `CertificatePinner.DEFAULT`) is a valid configuration that
/// pins nothing. A client given any other pinner (`.certificatePinner(certificatePinner1)` built in another file)
/// or a builder filled in a way not read may pin, so that file is refused.
extension OkHttpImporter {
    /// The pinners of a file without `add(…)` calls: empty ones by line, and the names they are assigned to.
    struct EmptyPinners {
        var builders: [Int] = []
        var defaults: [Int] = []
        var names: Set<String> = []
        /// Lines that name `CertificatePinner` in code or in a string (not in a comment).
        var codeLines: Set<Int> = []
    }

    /// What a file with no `add(…)` call configures, recorded in `draft` as notes when it pins nothing; throws
    /// when pins may be built where this file does not show them.
    static func unpinned(_ t: SourceScanner, text: String, draft: inout ImportDraft) throws(ImportError) {
        var found = EmptyPinners()
        var clients: [Int] = []
        for i in 0..<t.count {
            if case .string(let v, _) = t[i].kind, v.contains("CertificatePinner") { found.codeLines.insert(t[i].line) }
            if t[i].identifier == "certificatePinner", i >= 1, t[i - 1].isPunct("."), i + 1 < t.count, t[i + 1].isPunct("(") {
                clients.append(i + 1)
            }
            guard t[i].identifier == "CertificatePinner" else { continue }
            found.codeLines.insert(t[i].line)
            guard !isImport(t, at: i), i + 2 < t.count, t[i + 1].isPunct(".") else { continue }
            if t[i + 2].identifier == "DEFAULT" {
                found.defaults.append(t[i].line)
            } else if t[i + 2].identifier == "Builder", i + 3 < t.count, t[i + 3].isPunct("(") {
                guard builtEmpty(t, open: i + 3) else {
                    throw refusal(draft, "CertificatePinner.Builder() on line \(t[i].line) is given its pins in a way not read")
                }
                found.builders.append(t[i].line)
            } else {
                continue
            }
            if let name = assignedName(t, value: i) { found.names.insert(name) }
        }
        for open in clients where !passesEmptyPinner(t, open: open, names: found.names) {
            var what = "…"
            if let first = t.arguments(open)?.first, t[first.lowerBound].identifier != nil {
                what = EchoedInput.bare(SourceConstants.dottedName(t, at: first.lowerBound).0)
            }
            throw refusal(draft, "certificatePinner(\(what)) on line \(t[open].line) is given a pinner built elsewhere; import the file that builds it")
        }
        try describe(found, text: text, draft: &draft)
    }

    /// Records what the file configures instead of pins; throws when it shows no pinner at all.
    static func describe(_ found: EmptyPinners, text: String, draft: inout ImportDraft) throws(ImportError) {
        let commented = commentLine(text, codeLines: found.codeLines)
        guard commented != nil || !found.builders.isEmpty || !found.defaults.isEmpty else { throw refusal(draft, nil) }
        if let line = commented {
            draft.note(.info, line: line, "CertificatePinner is commented out here: this file builds no pinner, so no pins are enforced")
            draft.configures.append("a commented-out CertificatePinner (line \(line))")
        }
        for line in found.builders {
            draft.note(.info, line: line, "CertificatePinner.Builder().build() without add(): a pinner without pins, so no pins are enforced")
            draft.configures.append("an empty CertificatePinner (line \(line))")
        }
        for line in found.defaults {
            draft.note(.info, line: line, "CertificatePinner.DEFAULT has no pins, so no pins are enforced")
            draft.configures.append("CertificatePinner.DEFAULT (line \(line))")
        }
    }

    /// The refusal of a file whose pins are not in it (or not read), with `why` when known.
    static func refusal(_ draft: ImportDraft, _ why: String?) -> ImportError {
        let reason = why.map { "; \($0)" } ?? ""
        return ImportError(file: draft.file, line: nil,
                           message: "no CertificatePinner.Builder().add(pattern, pins…) call with constant arguments found\(reason)",
                           findings: draft.findings)
    }

    /// Whether the builder whose `(` is at `open` is built at once: `CertificatePinner.Builder().build()`.
    static func builtEmpty(_ t: SourceScanner, open: Int) -> Bool {
        guard t.matching(open) == open + 1, open + 3 < t.count else { return false }
        return t[open + 2].isPunct(".") && t[open + 3].identifier == "build"
    }

    /// Whether the `.certificatePinner(` call whose `(` is at `open` is given an empty pinner: `CertificatePinner.DEFAULT`,
    /// an empty builder, or a name one of those is assigned to in this file.
    static func passesEmptyPinner(_ t: SourceScanner, open: Int, names: Set<String>) -> Bool {
        guard let args = t.arguments(open), args.count == 1 else { return false }
        var a = args[0].lowerBound
        if t[a].identifier == "new" { a += 1 }
        guard a < args[0].upperBound, t[a].identifier != nil else { return false }
        let (name, end) = SourceConstants.dottedName(t, at: a)
        if name == "CertificatePinner.DEFAULT" { return end == args[0].upperBound }
        if name == "CertificatePinner.Builder", end < t.count, t[end].isPunct("(") { return builtEmpty(t, open: end) }
        let last = name.split(separator: ".").last.map(String.init) ?? name
        return end == args[0].upperBound && names.contains(last)
    }

    /// The variable a value starting at `value` is assigned to: `p = …`, `val p: CertificatePinner = …`,
    /// `CertificatePinner p = new …`.
    static func assignedName(_ t: SourceScanner, value: Int) -> String? {
        var j = value - 1
        if j >= 0, t[j].identifier == "new" { j -= 1 }
        guard j >= 1, t[j].isPunct("="), let name = t[j - 1].identifier else { return nil }
        if j >= 3, t[j - 2].isPunct(":"), let annotated = t[j - 3].identifier { return annotated }
        return name
    }

    /// Whether the `CertificatePinner` at `i` is part of an `import okhttp3.CertificatePinner` line.
    static func isImport(_ t: SourceScanner, at i: Int) -> Bool {
        var j = i - 1
        while j >= 1, t[j].isPunct("."), t[j - 1].identifier != nil { j -= 2 }
        return j >= 0 && t[j].identifier == "import"
    }

    /// The first line where the text names `CertificatePinner` outside code and strings (so in a comment).
    static func commentLine(_ text: String, codeLines: Set<Int>) -> Int? {
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !codeLines.contains(k + 1) && line.contains("CertificatePinner") {
            return k + 1
        }
        return nil
    }
}
