/// The bounds every importer enforces, public so that the CLI can refuse a file before reading it.
public enum ImportLimits {
    /// The largest file an importer reads (4 MiB). Shipped configurations and source files are far smaller; the cap
    /// keeps the tokens and trees built from hostile input within a small, predictable amount of memory.
    public static let maxInputBytes = 4 << 20
    /// The most values a structured document may hold, counting a shared binary-plist object at every reference.
    public static let maxNodes = 100_000
    /// The most tokens a source file (Kotlin, Java, Swift, Objective-C) may have: far above real files, and it
    /// keeps the token tables of a hostile 4 MiB file of punctuation within tens of megabytes.
    public static let maxTokens = 1_000_000
    /// The deepest nesting of elements, arrays or dictionaries accepted.
    public static let maxNestingDepth = 128
}
