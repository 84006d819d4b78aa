import PinGuardConfig

extension PinGuardRuntime {
    /// Reloads the configuration when the files `target_files` matches change (added, removed, rewritten),
    /// checking every `period` seconds on the service clock. A change that fails to load is reported once
    /// (`config_invalid`) and tried again only when the files change again.
    public func watchTargetFiles(period: Double = 5) async {
        var attempted = configuration.targetFilesFingerprint
        while !Task.isCancelled {
            try? await clock.sleep(seconds: period)
            let loaded = configuration
            guard !loaded.config.targetFiles.isEmpty else { continue }
            let now = ConfigurationLoader.targetFilesFingerprint(loaded.config, path: loaded.path)
            guard now != loaded.targetFilesFingerprint, now != attempted else { continue }
            attempted = now
            _ = await reload(trigger: "target_files changed")
        }
    }
}
