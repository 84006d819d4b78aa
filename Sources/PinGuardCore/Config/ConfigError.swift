/// A configuration or policy problem, naming the file, the line and the key.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// File the problem is in.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// Dotted key path, e.g. `environments.prod.policies[0].policy.pins[1].hash`.
    public var key: String?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `file:line: key: message`, on one line: control characters anywhere in it are escaped (the key
    /// path holds keys from the file), and the file name and key are cut short (see `EchoedInput`).
    /// Values echoed inside `message` are quoted and cut where the message is made.
    public var description: String {
        var s = EchoedInput.bare(file, limit: 400)
        if let line { s += ":\(line)" }
        s += ": "
        if let key, !key.isEmpty { s += "\(EchoedInput.bare(key)): " }
        return s + EchoedInput.bare(message, limit: 2_000)
    }
}
