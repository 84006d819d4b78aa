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

    /// A line per list `loaded` gives by URL, saying that `serve` fetches it (the bundled copy stands in for
    /// it here, so it is taken out of `ct` for the stale-list warning).
    static func fetchedLists(_ loaded: LoadedConfiguration, ct: inout CTSettings) -> [String] {
        CTLogListName.allCases.compactMap { name in
            guard let url = CTLogListSource(configured: loaded.config.ctLogLists[name]).url else { return nil }
            ct.lists[name] = nil
            let key = loaded.ctLogListKeys[name].map { "its signature checked with the \($0.key.summary) key in \($0.file)" }
                ?? "no signature: verified HTTPS only"
            return "\(name.rawValue) CT log list: serve fetches \(url) every \(PromDuration.format(loaded.config.ctRefresh)) "
                + "(\(key)); until it has, the copy kept in the state file or the bundled one"
        }
    }

    /// Says the warnings of `ct` about lists `sets` are judged with that are stale at `now`, and returns `ct`.
    static func warned(_ ct: CTSettings, sets: [PolicySet], now: Date, out: inout CommandOutput) -> CTSettings {
        for w in ct.staleListWarnings(at: now, sets: sets) { out.error("pinguard: warning: \(w)") }
        return ct
    }
}
