import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardProbe

/// `probe --config`: the target judged as `serve` judges it. The configuration's policy sets (unless `--policy`
/// files are given), its target for the same host and port (policy sets, environment, connect addresses, renewal
/// settings), its `renewal` defaults and issuer pools and catalog; the flags given on the command line win.
extension ProbeRun {
    /// The configuration `--config` names, loaded; nil without one.
    mutating func loadedConfiguration() throws(CommandStop) -> LoadedConfiguration? {
        do { return try options.config.map { path throws(ConfigError) in try ConfigurationLoader.load(path: path) } } catch {
            throw out.fail("pinguard: \(error)")
        }
    }

    /// The `--policy` files when given, else the configuration's sets.
    mutating func policySets(_ loaded: LoadedConfiguration?) throws(CommandStop) -> [PolicySet] {
        if options.policies.isEmpty, let loaded { return loaded.policySets }
        return try PolicyFiles.load(options.policies, format: options.inputFormat, out: &out)
    }

    /// The target probed: the configuration's target of the same host and port when there is one (its own
    /// `connect` unless `--connect` is given), else one made of the flags.
    func configuredTarget(sets: [PolicySet], loaded: LoadedConfiguration?) -> Target {
        let o = options
        let host = HostPattern.normalize(o.host)
        if var configured = loaded?.config.targets.first(where: { $0.host == host && $0.port == o.port }) {
            if !o.connect.isEmpty { configured.connect = o.connect }
            return configured
        }
        let named = o.policies.isEmpty ? nil : sets.map(\.name)
        return Target(host: host, port: o.port, connect: o.connect, environment: loaded?.config.environment ?? o.environment,
                      policySets: named, resolve: o.resolve, maxAddresses: o.maxAddresses)
    }

    /// The forecast's outlook: the renewal as the flags declare it over the configuration's `renewal`, the
    /// configuration's issuer pools, and the bundled catalog (or `--issuer-catalog`, else the configuration's).
    mutating func declaredOutlook(_ loaded: LoadedConfiguration?) throws(CommandStop) -> DeclaredRenewalOutlook {
        let settings = loaded.map { options.renewal.over($0.config.renewal) } ?? options.renewal
        if let loaded, options.issuerCatalog == nil {
            return DeclaredRenewalOutlook(settings: settings, pools: loaded.issuerPools, catalog: loaded.issuerCatalog)
        }
        var config = ServiceConfig()
        config.issuerCatalog = options.issuerCatalog
        do {
            let catalog = try IssuerSourcesLoader.catalog(config, base: FileManager.default.currentDirectoryPath)
            return DeclaredRenewalOutlook(settings: settings, pools: loaded?.issuerPools ?? [:], catalog: catalog)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }
}
