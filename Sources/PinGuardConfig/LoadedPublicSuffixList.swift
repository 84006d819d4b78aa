import PinGuardCore
import PinGuardReaders

/// A public suffix list and where it came from, for the line that says which list a run used.
public struct LoadedPublicSuffixList: Sendable {
    /// The rules.
    public var list: PublicSuffixList
    /// `bundled copy PATH (DATE)`, `system copy PATH (DATE)`, the path given, or why there is none.
    public var source: String
    /// True when no list could be read and the check is reduced to single-label suffixes.
    public var isMissing: Bool

    /// Creates a loaded list.
    public init(list: PublicSuffixList, source: String, isMissing: Bool = false) {
        self.list = list
        self.source = source
        self.isMissing = isMissing
    }
}
