import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto

/// The path judge of the clients a command's policy sets name, from the bundled stores (each older than its
/// refresh interval warned once on stderr) or from the CA file, which is then every client's store.
enum CommandClientStores {
    /// The judge for `sets` with `caFile`, else the stores of `storesFile`, else the bundled ones; nil when no
    /// set names a client. The judge `loaded` built from the same trust settings is taken when it judges every
    /// client of `sets`: the stores are not read twice.
    static func judge(sets: [PolicySet], caFile: String?, storesFile: String?, loaded: LoadedConfiguration?, now: Date,
                      out: inout CommandOutput) throws(ConfigError) -> ClientPathJudge? {
        let clients = Set(sets.map(\.client)).subtracting([.none])
        guard !clients.isEmpty else { return nil }
        let built = loaded.flatMap { l -> ClientPathJudge? in
            guard l.config.caFile == caFile, l.config.clientStores == storesFile, let judge = l.clientPaths,
                  clients.isSubset(of: judge.stores.map(\.data.client)) else { return nil }
            return judge
        }
        var judge = built
        if judge == nil { judge = try ClientTrustStores.judge(for: sets, caFile: caFile, storesFile: storesFile, now: now) }
        if caFile == nil {
            for store in judge?.stores.map(\.data) ?? [] where store.isStale(at: now) {
                out.error("pinguard: warning: \(ClientTrustStores.staleWarning(store, now: now))")
            }
        }
        return judge
    }

    /// Each client's paths above the issuers a renewal may come from, by `judge`: `loaded`'s when built by the same
    /// judge and no other catalog is named, else from the bundled catalog's certificates, `loaded`'s certificate
    /// files and those `catalog` (`--issuer-catalog` as read, in place of the configuration's) names; nil without a
    /// judge.
    static func issuerPaths(judge: ClientPathJudge?, loaded: LoadedConfiguration?,
                            catalog: (file: String, catalog: IssuerCatalog)? = nil) -> IssuerClientPaths? {
        guard let judge else { return nil }
        if catalog == nil, let built = loaded?.issuerPaths, built.judge === judge { return built }
        var files: [String] = []
        if var config = loaded?.config, let loaded {
            if catalog != nil { config.issuerCatalog = nil }
            files += IssuerSourcesLoader.certificateFiles(config, base: (loaded.path as NSString).deletingLastPathComponent,
                                                          catalog: loaded.issuerCatalog)
        }
        if let catalog { files += IssuerSourcesLoader.certificateFiles(of: catalog.catalog, file: catalog.file) }
        return IssuerSourcesLoader.issuerPaths(judge: judge, files: files)
    }
}
