import Foundation
import PinGuardConfig
import PinGuardCore

/// Certificate Transparency for `probe` and `plan`: the `ct` settings of `--config`, else the bundled log
/// lists and the roots of the trust store in use, collecting SCTs when one of the sets checks CT.
enum CommandCT {
    /// The settings for `sets`, with `loaded`'s `ct:` when given.
    static func settings(loaded: LoadedConfiguration?, sets: [PolicySet], caFile: String?) throws(ConfigError) -> CTSettings {
        let needed = CTSettings.needed(by: sets)
        if var ct = loaded?.config.ct {
            ct.collect = needed
            if needed && ct.lists.isEmpty { ct.lists = try CTLogListsLoader.load(replacements: [:], relativeTo: nil) }
            return ct
        }
        let roots = CTPublicRoots.defaultRoots(caFile: caFile)
        guard needed else { return CTSettings(publicRoots: roots) }
        return CTSettings(lists: try CTLogListsLoader.load(replacements: [:], relativeTo: nil), publicRoots: roots, collect: true)
    }

    /// Says the warnings of `ct` about lists `sets` are judged with that are stale at `now`, and returns `ct`.
    static func warned(_ ct: CTSettings, sets: [PolicySet], now: Date, out: inout CommandOutput) -> CTSettings {
        for w in ct.staleListWarnings(at: now, sets: sets) { out.error("pinguard: warning: \(w)") }
        return ct
    }
}
