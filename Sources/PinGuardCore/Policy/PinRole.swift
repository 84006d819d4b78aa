/// Whether a pin is the one in use or one held in reserve for a rotation.
public enum PinRole: String, Sendable, Codable, CaseIterable {
    case primary
    case backup
}
