/// What a client does when trust or pins fail: reject (`strict`) or accept and report (`permissive`).
public enum FailStrategy: String, Sendable, Codable {
    case strict
    case permissive
}
