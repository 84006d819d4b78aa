import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto

/// The path judge of the clients a command's policy sets name, from the bundled stores (each older than its
/// refresh interval warned once on stderr) or from the CA file, which is then every client's store.
enum CommandClientStores {
    /// The judge for `sets` with `caFile`, else the stores of `storesFile`, else the bundled ones; nil when no
    /// set names a client.
    static func judge(sets: [PolicySet], caFile: String?, storesFile: String?, now: Date,
                      out: inout CommandOutput) throws(ConfigError) -> ClientPathJudge? {
        let judge = try ClientTrustStores.judge(for: sets, caFile: caFile, storesFile: storesFile, now: now)
        if caFile == nil {
            for store in judge?.stores.map(\.data) ?? [] where store.isStale(at: now) {
                out.error("pinguard: warning: \(ClientTrustStores.staleWarning(store, now: now))")
            }
        }
        return judge
    }
}
