import PinGuardCore

extension PublicSuffixList {
    /// Parses the list format: one rule per line, `//` comments, `*.` wildcards, `!` exceptions; the first
    /// whitespace-separated word of a line is the rule. Both the ICANN and the private sections are used.
    ///
    /// Read byte by byte (the list is UTF-8, and every byte that ends a line or a word is ASCII or one of
    /// three fixed sequences): `serve` and `lint` read the bundled list at every start, and reading it scalar
    /// by scalar took about 9 ms of CPU, byte by byte about 2.5 (docs/benchmarks.md).
    public init(text: String) {
        var rules = Rules()
        var text = text
        text.withUTF8 { bytes in
            // Room for every line up front: growing the set rehashes what it holds, a third of the reading.
            rules.suffixes.reserveCapacity(bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
            var start = 0
            while start < bytes.count {
                let end = Self.lineEnd(bytes, from: start)
                rules.add(line: UnsafeBufferPointer(rebasing: bytes[start..<end.line]))
                start = end.next
            }
        }
        self.init(suffixes: rules.suffixes, wildcards: rules.wildcards, exceptions: rules.exceptions)
    }

    /// The rules read so far.
    private struct Rules {
        var suffixes = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()

        /// Takes the first word of `line` (after spaces and tabs), unless the line is empty or a comment.
        mutating func add(line: UnsafeBufferPointer<UInt8>) {
            guard let first = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            let word = UnsafeBufferPointer(rebasing: line[first...].prefix { $0 != 0x20 && $0 != 0x09 })
            guard !(word.count >= 2 && word[0] == 0x2F && word[1] == 0x2F) else { return }
            guard word.allSatisfy({ $0 < 0x80 }) else { return add(rule: String(decoding: word, as: UTF8.self).lowercased()) }
            // ASCII, almost every rule: its marks and case are bytes.
            if word.first == 0x21 {
                exceptions.insert(Self.lowercased(UnsafeBufferPointer(rebasing: word.dropFirst())))
            } else if word.count >= 2 && word[0] == 0x2A && word[1] == 0x2E {
                wildcards.insert(Self.lowercased(UnsafeBufferPointer(rebasing: word.dropFirst(2))))
            } else {
                suffixes.insert(Self.lowercased(word))
            }
        }

        /// Takes `rule` (lower case), a rule with other than ASCII in it, by its characters.
        mutating func add(rule: String) {
            if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else {
                suffixes.insert(rule)
            }
        }

        /// ASCII `word` lower-cased.
        static func lowercased(_ word: UnsafeBufferPointer<UInt8>) -> String {
            String(unsafeUninitializedCapacity: word.count, initializingUTF8With: { out in
                for (i, b) in word.enumerated() { out[i] = (0x41...0x5A).contains(b) ? b + 0x20 : b }
                return word.count
            })
        }
    }

    /// Where the line starting at `start` ends, and where the next one starts. Lines end where
    /// `Character.isNewline` says: LF, VT, FF, CR, and in UTF-8 NEL (C2 85), LS (E2 80 A8) and PS (E2 80 A9).
    static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (line: Int, next: Int) {
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if (0x0A...0x0D).contains(b) { return (i, i + 1) }
            if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0x85 { return (i, i + 2) }
            if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { return (i, i + 3) }
            i += 1
        }
        return (i, i)
    }
}
