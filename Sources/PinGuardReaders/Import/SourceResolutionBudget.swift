import PinGuardCore

/// The bytes that resolving constant expressions of one source file may still produce, shared by every evaluation
/// of the file (the constants table and the importer's own reads of arguments and values).
///
/// Chained constants (`C1 = C0 + C0`, `C2 = C1 + C1`, …) double at every line, and a long constant referred to
/// many times is copied at every reference: without a bound a file of a few hundred bytes resolves to gigabytes.
/// Every operand an evaluation appends is charged; past `limit` every further evaluation fails, and the importer
/// refuses the file with `check(file:)`.
final class SourceResolutionBudget {
    /// Bytes resolution may produce in all: `ImportLimits.resolvedBytesPerInputByte` per byte of input, and at
    /// least `ImportLimits.minResolvedBytes`.
    let limit: Int
    /// Bytes charged so far.
    private(set) var used = 0
    /// The line of the evaluation that went past `limit`, once one has.
    private(set) var exhaustedAt: Int?

    /// A budget for `inputBytes` of input (the file and the values supplied with `--define`).
    init(inputBytes: Int) {
        let (scaled, overflow) = inputBytes.multipliedReportingOverflow(by: ImportLimits.resolvedBytesPerInputByte)
        limit = overflow ? .max : max(ImportLimits.minResolvedBytes, scaled)
    }

    /// Whether the budget is spent.
    var isExhausted: Bool { exhaustedAt != nil }

    /// Charges `bytes` produced by an evaluation on `line`; false, now and for every later charge, once the total
    /// passes `limit`.
    func charge(_ bytes: Int, line: Int) -> Bool {
        guard exhaustedAt == nil else { return false }
        used = used.addingReportingOverflow(bytes).overflow ? .max : used + bytes
        if used > limit { exhaustedAt = line }
        return exhaustedAt == nil
    }

    /// Throws the refusal of the file once the budget is spent.
    func check(file: String) throws(ImportError) {
        guard let line = exhaustedAt else { return }
        throw ImportError(file: file, line: line,
                          message: "constant expressions resolve to more than \(limit) bytes in all "
                              + "(\(ImportLimits.resolvedBytesPerInputByte) per byte of input, at least \(ImportLimits.minResolvedBytes)); refused",
                          exceedsLimit: true)
    }
}
