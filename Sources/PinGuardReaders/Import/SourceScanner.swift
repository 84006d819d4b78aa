import PinGuardCore

/// The tokens of one source file with their bracket structure, so that finding a call's closing bracket,
/// splitting its arguments and walking out to the enclosing block each cost time proportional to what they
/// return, not to the rest of the file: thousands of chained or nested calls stay linear.
struct SourceScanner {
    /// The tokens, in file order.
    let tokens: [SourceToken]
    /// For an opening bracket (`(`, `[`, `{`), the index of the bracket that closes it; -1 otherwise or when unclosed.
    private let closeOf: [Int32]
    /// For a closing bracket, the index of the bracket it closes; -1 otherwise or when unmatched.
    private let openOf: [Int32]
    /// For every token, the innermost opening bracket before it that is still open there; -1 at top level.
    private let enclosingOf: [Int32]

    /// Scans `tokens` once.
    init(_ tokens: [SourceToken]) {
        self.tokens = tokens
        // Int32 indices: the tokenizer caps a file far below Int32.max tokens, and the tables stay half the size.
        var close = [Int32](repeating: -1, count: tokens.count)
        var open = [Int32](repeating: -1, count: tokens.count)
        var enclosing = [Int32](repeating: -1, count: tokens.count)
        var stack: [Int32] = []
        for (k, tok) in tokens.enumerated() {
            guard case .punct(let c) = tok.kind else { enclosing[k] = stack.last ?? -1; continue }
            if c == ")" || c == "]" || c == "}" {
                if let o = stack.popLast() {
                    close[Int(o)] = Int32(k)
                    open[k] = o
                }
                enclosing[k] = stack.last ?? -1
            } else {
                enclosing[k] = stack.last ?? -1
                if c == "(" || c == "[" || c == "{" { stack.append(Int32(k)) }
            }
        }
        closeOf = close
        openOf = open
        enclosingOf = enclosing
    }

    /// Number of tokens.
    var count: Int { tokens.count }

    subscript(_ k: Int) -> SourceToken { tokens[k] }

    /// Index of the bracket closing the one at `open`.
    func matching(_ open: Int) -> Int? {
        guard open >= 0, open < tokens.count, closeOf[open] >= 0 else { return nil }
        return Int(closeOf[open])
    }

    /// Index of the bracket opening the one closed at `close`.
    func opening(_ close: Int) -> Int? {
        guard close >= 0, close < tokens.count, openOf[close] >= 0 else { return nil }
        return Int(openOf[close])
    }

    /// The innermost bracket open at token `k`.
    func enclosing(_ k: Int) -> Int? {
        enclosingOf[k] >= 0 ? Int(enclosingOf[k]) : nil
    }

    /// Splits `range` at top-level commas, jumping over bracketed groups.
    func split(_ range: Range<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = range.lowerBound
        var k = range.lowerBound
        while k < range.upperBound {
            if tokens[k].isPunct(",") {
                out.append(start..<k)
                start = k + 1
            } else if let c = matching(k), c < range.upperBound {
                k = c
            }
            k += 1
        }
        out.append(start..<range.upperBound)
        return out
    }

    /// The argument ranges of the call whose `(` is at `open`, empty arguments dropped; nil when unclosed.
    func arguments(_ open: Int) -> [Range<Int>]? {
        guard let close = matching(open) else { return nil }
        return split((open + 1)..<close).filter { !$0.isEmpty }
    }
}
