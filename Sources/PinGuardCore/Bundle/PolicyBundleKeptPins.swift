/// Which pins the clients enforce after pinguard verified a bundle (label `kept_pins`).
public enum PolicyBundleKeptPins: String, Sendable, Equatable {
    /// The bundle verified: its payload.
    case bundle
    /// The bundle was rejected: the last payload pinguard verified, which the clients kept.
    case previousVerified = "previous_verified"
    /// The bundle was rejected and no verified payload was seen: the pins built into the app (`builtin_policy`).
    case builtin
    /// The bundle was rejected and neither is known: nothing to evaluate.
    case none
}
