/// A pin together with the chain certificates it matched.
public struct PinMatch: Sendable, Equatable {
    /// The configured pin.
    public var pin: Pin
    /// Depths of the evaluated chain it matched (within its scope).
    public var depths: [Int]
}
