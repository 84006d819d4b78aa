extension Int {
    /// `value` truncated toward zero and clamped to `Int.min...Int.max`; NaN gives 0.
    ///
    /// `Int(_: Double)` traps outside the range, and durations, day counts and timestamps read from
    /// files or certificates can be anywhere in it (`interval: 9999999999999999999h`, notAfter 9999).
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Int.max) {
            self = .max
        } else if value <= Double(Int.min) {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
