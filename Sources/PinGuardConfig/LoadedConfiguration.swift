import PinGuardCore

/// A configuration with every policy file it names loaded and cross-checked.
public struct LoadedConfiguration: Sendable {
    /// The parsed service configuration (paths resolved against the config's folder).
    public var config: ServiceConfig
    /// Policy sets from every file the config names, in load order.
    public var policySets: [PolicySet]
    /// The config file's path.
    public var path: String
}
