import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe

/// Loads a configuration and keeps only this instance's shard of its targets: `--shard I/N` when given,
/// else the file's `shard:` key; `--replica`/`--vantage` likewise replace the file's `instance:`. Used for the first load and every reload; a reload of an unchanged
/// `pinguard.yml` takes its parse from the last load (`ParsedConfigurationMemo`).
public struct ShardedConfigurationLoader: Sendable {
    /// `--shard`, which overrides the file's `shard:`.
    public let override: TargetShard?
    /// `--replica` and `--vantage`, which override the file's `instance:`.
    public let instance: InstanceLabels
    private let memo = ParsedConfigurationMemo()

    /// Creates a loader; `override` comes from `--shard`, `instance` from `--replica` and `--vantage`.
    public init(override: TargetShard?, instance: InstanceLabels = InstanceLabels()) {
        self.override = override
        self.instance = instance
    }

    /// Loads `path` and selects the shard's targets (by `hashmod` of the target name).
    public func load(path: String) throws(ConfigError) -> LoadedConfiguration {
        var loaded = try ConfigurationLoader.load(path: path, memo: memo)
        loaded.config.instance = loaded.config.instance.overridden(by: instance)
        guard let shard = override ?? loaded.config.shard else { return loaded }
        loaded.config.shard = shard
        loaded.config.targets = shard.select(loaded.config.targets, hash: HashMod.sum64)
        return loaded
    }
}
