import PinGuardCore

/// The bounds every importer enforces, public so that the CLI can refuse a file before reading it.
public enum ImportLimits {
    /// The largest file an importer reads (4 MiB). Shipped configurations and source files are far smaller; the cap
    /// keeps the tokens and trees built from hostile input within a small, predictable amount of memory.
    public static let maxInputBytes = 4 << 20
    /// The most values a structured document may hold, counting a shared binary-plist object at every reference.
    /// The TrustKit source reader counts the values of the configuration literal against it too.
    public static let maxNodes = 100_000
    /// The most tokens a source file (Kotlin, Java, Swift, Objective-C) may have: far above real files, and it
    /// keeps the token tables of a hostile 4 MiB file of punctuation within tens of megabytes.
    public static let maxTokens = 1_000_000
    /// The deepest nesting of elements, arrays or dictionaries accepted (the TrustKit source reader's dictionary
    /// and array literals included).
    public static let maxNestingDepth = 128
    /// The longest string a constant expression of a source file may resolve to (`C1 = C0 + C0`, `#define`,
    /// `--define`). Hosts and pins are a few hundred bytes at most; a longer value is left unresolved, with a warning.
    public static let maxResolvedStringBytes = 65_536
    /// The bytes that resolving the constant expressions of one source file may produce in all, per byte of input
    /// (file and `--define` values), so that chained or repeated constants cost time and memory linear in the input.
    public static let resolvedBytesPerInputByte = 8
    /// The resolution allowance every source file has whatever its size (1 MiB), so small files referring to the
    /// same constants many times are never refused.
    public static let minResolvedBytes = 1 << 20
    /// The most rules one import produces. With `maxImportedPins`, it keeps the emitted policy file well within the
    /// 500,000-node budget the policy reader enforces (docs/reference.md, import limits).
    public static let maxImportedRules = 10_000
    /// The most pins one import produces, counted over all rules (a pin shared by two rules counts twice).
    public static let maxImportedPins = 25_000
}
