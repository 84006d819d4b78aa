import Foundation
import PinGuardConfig
import PinGuardCore

extension PinGuardRuntime {
    /// Fetches the log lists given by URL whenever one is due (at start, unless the store holds a fresh copy;
    /// then every `ct.refresh`; within the hour after a failure), until the task is cancelled.
    public func refreshLogLists() async {
        while !Task.isCancelled {
            await refreshDueLogLists()
            try? await clock.sleep(seconds: logLists.pause(configuration, now: clock.now))
        }
    }

    /// Fetches every list due now; each one taken that differs from the list in force is put in force.
    public func refreshDueLogLists() async {
        let loaded = configuration
        for d in logLists.due(loaded, now: clock.now) {
            let current = configuration.config.ct.lists[d.name]
            guard let list = await logLists.refresh(d, current: current, settings: loaded.config.fetch,
                                                     every: loaded.config.ctRefresh, now: clock.now) else { continue }
            await putInForce(list, from: d)
        }
        warnStaleLists()
    }

    /// Puts `list` in force in its turn among reloads, as a reload of new log lists would: the probes' keyring,
    /// the certificate files and every result's CT verdicts judged again with it.
    func putInForce(_ list: CTLogList, from d: CTLogListDownload) async {
        await reloader.exclusively {
            var loaded = configuration
            // A reload since the fetch may have named another URL: then this list is not the one asked for.
            guard CTLogListSource(configured: loaded.config.ctLogLists[d.name]).url == d.url else { return }
            loaded = logLists.inForce(loaded, now: clock.now)
            do { try executor.reconfigure(for: loaded.config, clientPaths: loaded.clientPaths) } catch {
                StandardError.write("pinguard: \(d.name.rawValue) CT log list \(d.url): not put in force: \(error)", level: .warn)
                return
            }
            state.withLockedValue { $0.loaded = loaded }
            judgeFiles()
            send(store.apply(config: loaded.config, judge: judge(loaded), outlookChanged: false, ctChanged: true, now: clock.now))
            StandardError.write("pinguard: \(d.name.rawValue) CT log list \(d.url): version \(list.version) (\(RFC3339.format(list.timestamp))) in force")
        }
    }

    /// Warns once about each stale list in force that a policy set is judged with, except a list given by URL
    /// whose first fetch is still to come (the bundled copy stands in for a moment only).
    func warnStaleLists() {
        let loaded = configuration
        var ct = loaded.config.ct
        for name in CTLogListName.allCases where logLists.awaitsFirstFetch(name, loaded) { ct.lists[name] = nil }
        let warnings = ct.staleListWarnings(at: clock.now, sets: loaded.policySets)
        guard let chrome = ct.lists[.chrome], !warnings.isEmpty else { return }
        let first = state.withLockedValue { $0.staleListsWarned.insert("\(chrome.origin) \(chrome.timestamp)").inserted }
        // A list given by URL is stale because no newer one could be had from it: the message about it says why.
        let url = CTLogListSource(configured: loaded.config.ctLogLists[.chrome]).url
        let why = url.map { " (no newer list could be had from \($0))" } ?? ""
        if first { for w in warnings { StandardError.write("pinguard: warning: \(w)\(why)", level: .warn) } }
    }
}
