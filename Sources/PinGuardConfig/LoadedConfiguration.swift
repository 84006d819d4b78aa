import PinGuardCore

/// A configuration with every policy file it names loaded and cross-checked.
public struct LoadedConfiguration: Sendable {
    /// The parsed service configuration (paths resolved against the config's folder).
    public var config: ServiceConfig
    /// Policy sets from every file the config names, in load order.
    public var policySets: [PolicySet]
    /// The config file's path.
    public var path: String
    /// What the target files looked like when they were read (`ConfigurationLoader.targetFilesFingerprint`).
    public var targetFilesFingerprint: String = ""

    /// Creates a loaded configuration.
    public init(config: ServiceConfig, policySets: [PolicySet], path: String, targetFilesFingerprint: String = "") {
        self.config = config
        self.policySets = policySets
        self.path = path
        self.targetFilesFingerprint = targetFilesFingerprint
    }
}
