import PinGuardCore

/// Pins in the order they are listed, each once (the formats treat pins as a set), with constant-time membership:
/// a host given tens of thousands of pins, or a pattern repeated in as many calls, stays linear.
struct DistinctPins {
    /// The pins, first occurrence kept.
    private(set) var pins: [Pin] = []
    private var members: Set<Pin> = []

    /// Number of pins.
    var count: Int { pins.count }

    /// Whether there are none.
    var isEmpty: Bool { pins.isEmpty }

    /// Whether an equal pin is present.
    func contains(_ pin: Pin) -> Bool { members.contains(pin) }

    /// Adds `pin` unless an equal one is present; false when it was.
    @discardableResult
    mutating func insert(_ pin: Pin) -> Bool {
        guard members.insert(pin).inserted else { return false }
        pins.append(pin)
        return true
    }
}
