import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe

/// Loads a configuration and keeps only this instance's shard of its targets: `--shard I/N` when given,
/// else the file's `shard:` key. Used for the first load and every reload; a reload of an unchanged
/// `pinguard.yml` takes its parse from the last load (`ParsedConfigurationMemo`).
public struct ShardedConfigurationLoader: Sendable {
    /// `--shard`, which overrides the file's `shard:`.
    public let override: TargetShard?
    private let memo = ParsedConfigurationMemo()

    /// Creates a loader; `override` comes from `--shard`.
    public init(override: TargetShard?) { self.override = override }

    /// Loads `path` and selects the shard's targets (by `hashmod` of the target name).
    public func load(path: String) throws(ConfigError) -> LoadedConfiguration {
        var loaded = try ConfigurationLoader.load(path: path, memo: memo)
        guard let shard = override ?? loaded.config.shard else { return loaded }
        loaded.config.shard = shard
        loaded.config.targets = shard.select(loaded.config.targets, hash: HashMod.sum64)
        return loaded
    }
}
