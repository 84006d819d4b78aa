import Foundation
import NIOConcurrencyHelpers
import PinGuardARI
import PinGuardConfig
import PinGuardCore
import PinGuardFetch
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe

/// The running service, composed of parts with one job each: the configuration in force, a
/// `ResultStore` of the latest results, a `ProbeExecutor` that probes, a `ConfigurationReloader` that
/// serializes reloads, lint tracking, and a `ServiceClock` for every reading of the time.
///
/// Shared by the scheduler, the HTTP endpoint and the signal handler.
public final class PinGuardRuntime: Sendable {
    let state: NIOLockedValueBox<State>
    /// Latest results by target.
    public let store: ResultStore
    /// `/metrics`, kept rendered and compressed per slice of the store's targets.
    private let exposition: ExpositionCache
    /// What probes the targets.
    public let executor: any ProbeExecutor
    /// The memory of served chains (renewals, key ages), kept across restarts when it has a file.
    public let memory: ChainMemory
    /// Attaches each chain's revocation state from CRLs; nil when CRLs are not checked.
    public let revocation: RevocationChecker?
    /// Downloads the CRLs the rounds want, beside them; nil when CRLs are not checked.
    public let crlDownloads: CRLDownloads?
    /// Downloads the issuers Chrome and Apple would download from caIssuers URLs, for every judge in force.
    public let issuerDownloads: IssuerDownloads
    /// Every certificate a valid CRL revokes on any target's chain: dropped from every forecast's issuers.
    public let knownRevocations = KnownRevocations()
    /// Every time the runtime reads or waits for.
    public let clock: any ServiceClock
    /// Journal events go here.
    public let journal: JournalSink
    /// systemd notifications go here.
    public let notifier: SystemdNotifier
    /// The CAs' renewal windows of the served leaves (ACME Renewal Information), checked off the probe path.
    public let renewalInfo: RenewalInfoWatch
    /// Every download of the service (CRLs, renewal information, CT log lists) goes through this one fetcher.
    public let downloads: Downloads
    let reloader: ConfigurationReloader
    /// Keeps the log lists given by URL fresh.
    let logLists: LogListRefresher
    private let wake = RoundWake()
    /// `GET /probe` requests in progress.
    let probeRequests = ClientSlots(total: PinGuardRuntime.maxProbeRequests, perClient: PinGuardRuntime.maxProbeRequestsPerClient)

    /// Creates a runtime from a loaded configuration.
    ///
    /// - Parameters:
    ///   - executor: probes targets; by default OpenSSL on a thread pool (throws when the trust store
    ///     cannot be loaded).
    ///   - loader: reads a configuration file on reload.
    ///   - memory: the memory of served chains; by default one in memory only.
    ///   - fetcher: makes the fetcher of `fetch` settings that downloads the log lists given by URL; by default
    ///     the guarded fetcher.
    ///   - documents: where fetched lists are kept across restarts; by default the memory's state file.
    public init(loaded configured: LoadedConfiguration, journal: JournalSink, notifier: SystemdNotifier = SystemdNotifier(),
                clock: any ServiceClock = WallClock(), executor: (any ProbeExecutor)? = nil, memory: ChainMemory? = nil,
                fetcher: (@Sendable (FetchSettings) throws -> any DocumentFetching)? = nil,
                documents: (any FetchedDocumentStore)? = nil,
                loader: @escaping @Sendable (String) throws(ConfigError) -> LoadedConfiguration
                    = { (path) throws(ConfigError) in try ConfigurationLoader.load(path: path) })
        throws(ProbeError) {
        let memory = memory ?? ChainMemory(memoryOnly: "no state file given", configured: Set(configured.config.targets.map(\.name)))
        let notices = RefusalNotices { StandardError.write("pinguard: \($0)", level: .warn) }
        var maker: Downloads.Maker?
        if let fetcher { maker = { settings, _ in try fetcher(settings) } }
        let downloads = Downloads(settings: configured.config.fetch, notices: notices, make: maker)
        self.downloads = downloads
        logLists = LogListRefresher(makeFetcher: { try downloads.fetcher(for: $0).get() }, documents: documents ?? memory.documents)
        let loaded = logLists.inForce(configured, now: clock.now)
        let issuerDownloads = IssuerDownloads(issuers: FetchedIssuers(), fetcher: downloads, store: documents ?? memory.documents, clock: clock)
        self.issuerDownloads = issuerDownloads
        loaded.clientPaths?.fetchIssuers(from: issuerDownloads.issuers)
        if let executor {
            self.executor = executor
        } else {
            self.executor = try ThreadPoolProbeExecutor(config: loaded.config, clientPaths: loaded.clientPaths, clock: clock)
        }
        self.clock = clock
        self.memory = memory
        crlDownloads = CRLDownloads(cache: CRLCache(clock: clock), fetcher: downloads, store: memory.documents, clock: clock)
        revocation = crlDownloads.map { RevocationChecker(cache: $0.cache, clock: clock) }
        self.journal = journal
        self.notifier = notifier
        renewalInfo = RenewalInfoWatch(client: RenewalInfoClient(fetcher: downloads, store: memory.documents))
        store = ResultStore(config: loaded.config, judge: Judge(sets: loaded.policySets, ct: loaded.config.ct,
                                                                renewals: RenewalContext(loaded, files: [], memory: self.memory,
                                                                                         renewalInfo: renewalInfo,
                                                                                         revoked: knownRevocations)))
        exposition = ExpositionCache(store: store)
        state = NIOLockedValueBox(State(loaded: loaded, lastReloadSuccess: clock.now))
        reloader = ConfigurationReloader(loader: loader)
        self.memory.configure(targets: Set(loaded.config.targets.map(\.name)), now: clock.now, retention: loaded.config.stateRetention)
        announceLoad(loaded)
    }

    /// Stops the probe threads, then writes what the memory learned since its last commit and closes it.
    public func shutdown() async {
        await executor.shutdown()
        send(memory.commit(now: clock.now))
        memory.close()
    }

    /// The configuration in force.
    public var configuration: LoadedConfiguration { state.withLockedValue { $0.loaded } }

    /// Whether a complete round has finished.
    public var isReady: Bool { state.withLockedValue { $0.ready } }

    /// What /metrics renders.
    public func snapshot() -> MetricsSnapshot {
        var m = serviceSnapshot()
        m.results = store.results
        return m
    }

    /// `/metrics` from the slices the cache keeps, with everything but the per-target results read now.
    public func metricsBody(gzip: Bool) -> ResponseBody {
        exposition.body(service: serviceSnapshot(), gzip: gzip)
    }

    /// Renders the slices whose results changed since the last scrape or refresh.
    public func refreshMetrics() {
        exposition.refresh(certificates: state.withLockedValue { $0.loaded.config.certificateSeries })
    }

    /// The snapshot without the per-target results (which the exposition cache reads from the store).
    func serviceSnapshot() -> MetricsSnapshot {
        let counters = store.counters
        var m = MetricsSnapshot()
        m.version = PinGuardVersion.current
        m.openSSLVersion = TLSProber.openSSLVersion
        m.probesTotal = counters.probes
        m.probeFailuresTotal = counters.failures
        m.journalFailuresTotal = journal.failures
        state.withLockedValue { s in
            m.lintFindings = s.lintCounts
            m.bundles = s.loaded.bundles
            m.lastReloadSuccessful = s.lastReloadOK
            m.lastReloadSuccess = s.lastReloadSuccess
            m.targets = s.loaded.config.targets.count
            m.certificates = s.loaded.config.certificateSeries
            m.roundInterval = s.loaded.config.interval
            m.shard = s.loaded.config.shard
            m.roundDuration = s.roundDuration
            m.roundTimestamp = s.roundTimestamp
            m.roundLateness = s.roundLateness
            m.files = s.files
            m.fileSituations = s.fileSituations
            m.ctLogListTimestamps = s.loaded.config.ct.lists.mapValues(\.timestamp)
            m.crls = s.crls
        }
        m.memory = memory.facts
        m.process = ProcessStatsReader.read()
        return m
    }

    private func announceLoad(_ loaded: LoadedConfiguration) {
        for f in loaded.importFindings { StandardError.write("pinguard: \(f.description)", level: .warn) }
        warnStaleLists()
        warnStaleClientStores()
        journal.send(.configLoaded(path: loaded.path, targets: loaded.config.targets.count,
                                   policySets: loaded.policySets.map(\.name)))
        for b in loaded.bundles where b.state != .valid { journal.send(.policyBundleRejected(b)) }
        relint()
    }

    /// Recomputes lint findings of the policies in force; writes events for new findings only.
    func relint() {
        let now = clock.now
        let events = state.withLockedValue { s -> [JournalEntry] in
            let (counts, events) = s.lint.update(s.loaded.policySets, now: now, windowDays: s.loaded.config.expiryWarningDays,
                                                 catalog: s.loaded.issuerCatalog)
            s.lintCounts = counts
            return events
        }
        send(events)
    }

    func send(_ events: [JournalEntry]) {
        for e in events { journal.send(e) }
    }

    /// Reloads the configuration file in force. A bad file leaves the running configuration untouched,
    /// writes `config_invalid` and returns the error; a good one takes effect at once and wakes the scheduler.
    public func reload(trigger: String) async -> Result<LoadedConfiguration, ConfigError> {
        notifier.reloading()
        defer { notifier.notify("READY=1") }
        let path = configuration.path
        let executor = executor
        let logLists = logLists, clock = clock, issuers = issuerDownloads.issuers
        let outcome = await reloader.reload(path: path, prepare: { (read) throws(ConfigError) in
            // The lists fetched from URLs the new configuration still names stay in force.
            let loaded = logLists.inForce(read, now: clock.now)
            loaded.clientPaths?.fetchIssuers(from: issuers)
            do { try executor.reconfigure(for: loaded.config, clientPaths: loaded.clientPaths) } catch {
                // A client identity error names its target in the message; anything else is the trust store.
                let identity = (error as? ProbeError)?.code == .clientIdentity
                throw ConfigError(file: path, line: identity ? nil : loaded.config.lines["trust.ca_file"],
                                  key: identity ? nil : "trust.ca_file", message: "\(error)")
            }
            return loaded
        }, apply: { loaded in self.apply(loaded) })
        if case .failure(let error) = outcome {
            state.withLockedValue { $0.lastReloadOK = false }
            journal.send(.configInvalid(path: path, error: error.description))
            StandardError.write("pinguard: reload (\(trigger)) rejected, previous configuration kept: \(error)", level: .error)
        }
        return outcome
    }

    private func apply(_ reloaded: LoadedConfiguration) {
        let now = clock.now
        var loaded = reloaded
        let previous = state.withLockedValue { s in
            loaded.carryOverBundles(from: s.loaded.bundles)
            if loaded.config.listen != s.loaded.config.listen {
                StandardError.write("pinguard: listen address changes take effect on restart", level: .warn)
            }
            if loaded.config.statePath != s.loaded.config.statePath {
                StandardError.write("pinguard: state.path changes take effect on restart", level: .warn)
            }
            let previous = s.loaded
            s.loaded = loaded
            s.lastReloadOK = true
            s.lastReloadSuccess = now
            return previous
        }
        // The staged chains first: the forecast judged again below reads them.
        judgeFiles()
        if previous.config.fetch != loaded.config.fetch {
            downloads.use(loaded.config.fetch)
            crlDownloads?.cache.settingsChanged()
        }
        let outlookChanged = previous.config.renewal != loaded.config.renewal || previous.config.files != loaded.config.files
            || previous.issuerPools != loaded.issuerPools || previous.issuerCatalog != loaded.issuerCatalog
        let events = store.apply(config: loaded.config, judge: judge(loaded), outlookChanged: outlookChanged,
                                 ctChanged: previous.config.ct != loaded.config.ct, now: now)
        memory.configure(targets: Set(loaded.config.targets.map(\.name)), now: now, retention: loaded.config.stateRetention)
        journal.enabled = loaded.config.journalEnabled
        journal.identity = loaded.config.instance.journalFields(shard: loaded.config.shard)
        wake.wake()
        announceLoad(loaded)
        send(events)
        // The store frees the replaced results and trims the heap on a background thread.
    }

    /// The one judgement of `loaded`: its policies, CT settings and renewal outlook (the staged chains of
    /// `files:` as last judged and the memory of served chains as it stands).
    func judge(_ loaded: LoadedConfiguration) -> Judge {
        Judge(sets: loaded.policySets, ct: loaded.config.ct,
              renewals: RenewalContext(loaded, files: state.withLockedValue { $0.files }, memory: memory, renewalInfo: renewalInfo,
                                       revoked: knownRevocations))
    }

    /// Judges the certificate files of `files:` again (each round, and at once after a reload).
    func judgeFiles() {
        let loaded = configuration
        guard !loaded.config.files.isEmpty || state.withLockedValue({ !$0.files.isEmpty }) else { return }
        let results = FileTargetJudge.judge(loaded.config, sets: loaded.policySets, keyring: loaded.ctKeyring,
                                           clientPaths: loaded.clientPaths, now: clock.now)
        let situations = FileExpiry.situations(results, probedHosts: Set(loaded.config.targets.map(\.host)), now: clock.now)
        let events = state.withLockedValue { s -> [JournalEntry] in
            s.files = results
            s.fileSituations = situations
            var memories: [String: StagedChainEvents.Memory] = [:]
            var events: [JournalEntry] = []
            for r in results {
                var memory = s.fileMemories[r.target.name] ?? StagedChainEvents.Memory()
                events += StagedChainEvents.changes(r, memory: &memory)
                memories[r.target.name] = memory
            }
            s.fileMemories = memories
            return events
        }
        store.use(judge(loaded))
        send(events)
    }

    /// Waits until `due` (one interval after the last round started) or until a reload asks for a
    /// catch-up (`catchUp()`); true when a reload woke it.
    @discardableResult
    public func waitForNextRound(until due: Date) async -> Bool {
        await wake.wait(until: due, clock: clock)
    }
}
