import Foundation

/// Renders a `MetricsSnapshot` in the Prometheus text format 0.0.4, family by family, with HELP and TYPE.
///
/// The targets are walked once (not once per family) and each family is written into its own byte buffer
/// without intermediate strings per series; the buffers, in family order (`PinGuardMetrics.all`), are the
/// exposition. The service renders the per-target families a slice of targets at a time, without their
/// HELP and TYPE lines (`renderTargetFamilies`), and keeps them compressed between scrapes.
public enum MetricsRenderer {
    /// The content type of the exposition.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition bytes.
    public static func render(_ s: MetricsSnapshot) -> [UInt8] {
        var out: [UInt8] = []
        let chunks = renderChunks(s)
        out.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for c in chunks { out.append(contentsOf: c) }
        return out
    }

    /// The `pinguard_file_*` families, starting in `pinguard_file_success`.
    static func writeFiles(_ files: [TargetResult], into w: inout ExpositionWriter) {
        typealias M = PinGuardMetrics
        for r in files { w.begin(); w.label(r.target.name); w.end(r.facts.success ? 1 : 0) }
        w.start(M.fileChainTrusted)
        for r in files where r.facts.success { w.begin(); w.label(r.target.name); w.end(r.facts.trusted ? 1 : 0) }
        w.start(M.fileCertNotAfter)
        for r in files { for c in r.facts.evaluatedChain { w.begin(); w.label(r.target.name); w.label(c.depth); w.end(c.notAfter) } }
        w.start(M.fileChainEarliestExpiry)
        for r in files {
            if let e = r.facts.evaluatedChain.map(\.notAfter).min() { w.begin(); w.label(r.target.name); w.end(e) }
        }
        w.start(M.filePolicyAccept)
        for r in files {
            for e in r.evaluations where e.verdict != .none {
                w.begin(); w.label(r.target.name); w.label(e.policySet); w.label(e.environment); w.end(e.verdict == .accept ? 1 : 0)
            }
        }
        w.start(M.filePinHorizon)
        for r in files { for e in r.evaluations { if let h = e.pinHorizon { w.begin(); w.label(r.target.name); w.label(e.policySet); w.end(h) } } }
        w.start(M.fileReservePins)
        for r in files {
            for e in r.evaluations where e.isEvaluated {
                w.begin(); w.label(r.target.name); w.label(e.policySet); w.end(Double(e.reservePins.count))
            }
        }
    }

    /// The families whose series grow with the targets, with how a result writes each, in exposition order.
    static let targetSeries: [TargetSeries] = TargetSeries.probe + TargetSeries.judgement + TargetSeries.clientAuth
        + TargetSeries.forecast + TargetSeries.ct + TargetSeries.revocation + TargetSeries.situation

    /// The families whose series grow with the targets, in exposition order (the order of
    /// `renderTargetFamilies`' buffers).
    public static let targetFamilies: [MetricFamily] = targetSeries.map(\.family)

    /// The HELP and TYPE lines of `family`.
    public static func header(_ family: MetricFamily) -> [UInt8] {
        ExpositionWriter(family, capacity: 0).buffer
    }

    /// The exposition as consecutive chunks (one or more families each), to be sent in order; without
    /// `serviceFamilies`, only the per-target families and the certificates above their leaves (what
    /// `GET /probe` answers).
    public static func renderChunks(_ s: MetricsSnapshot, serviceFamilies: Bool = true) -> [[UInt8]] {
        var families = renderTargetFamilies(s.results, certificates: s.certificates, headers: true)
        for (index, rows) in situationRows(s.fileSituations) { families[index] += rows }
        let perTarget = families + [renderCACertificates(CACertificates(s.results, certificates: s.certificates))]
        guard serviceFamilies else { return perTarget }
        return perTarget + [renderMemoryFamilies(s.memory), renderServiceFamilies(s, coverage: BackupPinCoverage.compute(s.results))]
    }

    /// The series of `results` in the families of `targetFamilies`, one buffer per family in that order;
    /// without `headers`, samples only, so that the buffers of consecutive slices of the targets concatenate
    /// to the family's samples for all of them (what `/metrics` caches per slice).
    public static func renderTargetFamilies(_ results: some Collection<TargetResult>, certificates: CertificateSeries,
                                            headers: Bool) -> [[UInt8]] {
        // Generous per-target estimates: capacity that is never written costs address space, not memory,
        // while a buffer that has to grow holds its old and new copies at once.
        let series = targetSeries
        var writers = series.map { ExpositionWriter($0.family, capacity: results.count * $0.bytesPerTarget, header: headers) }
        for r in results {
            var shared = TargetRender(certificates: certificates)
            for i in series.indices { series[i].write(r, &shared, &writers[i]) }
        }
        return writers.map(\.buffer)
    }

    /// The families that do not grow with the targets, in one buffer: files, coverage (given, since it
    /// sums over every target), bundles, lint, build, config, counters, round and process.
    public static func renderServiceFamilies(_ s: MetricsSnapshot, coverage: [BackupPinCoverage]) -> [UInt8] {
        typealias M = PinGuardMetrics
        // The families that do not grow with the targets share one buffer.
        var w = ExpositionWriter(M.fileSuccess, capacity: 4096 + s.lintFindings.count * 100 + s.files.count * 2048)
        writeFiles(s.files, into: &w)
        w.start(M.backupPinCoverage)
        for c in coverage {
            if let ratio = c.ratio {
                w.begin(); w.label(c.policySet); w.label(c.environment); w.end(ratio)
            }
        }
        w.start(M.policyBundleValid)
        for b in s.bundles {
            w.begin(); w.label(b.bundle.name); w.label(b.bundle.environment); w.end(b.state == .valid ? 1 : 0)
        }
        w.start(M.policyBundleInfo)
        for b in s.bundles {
            w.begin(); w.label(b.bundle.name); w.label(b.bundle.environment); w.label(b.state.rawValue)
            w.label(b.scheme?.name ?? ""); w.label(b.scheme?.keyID ?? ""); w.label(b.kept.rawValue); w.end(1)
        }
        w.start(M.policyLintFindings)
        for l in s.lintFindings {
            w.begin(); w.label(l.policySet); w.label(l.severity); w.end(Double(l.count))
        }
        w.start(M.ctLogListTimestamp)
        for client in [CTClient.ios, .chrome, .android] {
            if let t = s.ctLogListTimestamps[client.logList] { w.begin(); w.label(client.rawValue); w.end(t) }
        }
        writeCRLs(s.crls, into: &w)
        w.start(M.buildInfo)
        w.begin(); w.label(s.version); w.label(s.openSSLVersion); w.end(1)
        w.start(M.configLastReloadSuccessful)
        w.begin(); w.end(s.lastReloadSuccessful ? 1 : 0)
        w.start(M.configLastReloadSuccessTimestamp)
        if let t = s.lastReloadSuccess { w.begin(); w.end(t) }
        w.start(M.targets)
        w.begin(); w.end(Double(s.targets))
        w.start(M.probesTotal)
        w.begin(); w.end(Double(s.probesTotal))
        w.start(M.probeFailuresTotal)
        w.begin(); w.end(Double(s.probeFailuresTotal))
        w.start(M.journalWriteFailuresTotal)
        w.begin(); w.end(Double(s.journalFailuresTotal))
        w.start(M.roundDuration)
        if let d = s.roundDuration { w.begin(); w.end(d) }
        w.start(M.roundTimestamp)
        if let t = s.roundTimestamp { w.begin(); w.end(t) }
        w.start(M.roundInterval)
        if let i = s.roundInterval { w.begin(); w.end(i) }
        w.start(M.roundLateness)
        if let l = s.roundLateness { w.begin(); w.end(l) }
        w.start(M.shardIndex)
        if let shard = s.shard { w.begin(); w.end(Double(shard.index)) }
        w.start(M.shardTotal)
        if let shard = s.shard { w.begin(); w.end(Double(shard.total)) }
        let p = s.process
        for (family, value) in [(M.processCPU, p?.cpuSeconds), (M.processOpenFDs, p?.openFDs.map(Double.init)),
                                (M.processMaxFDs, p?.maxFDs.map(Double.init)), (M.processVirtualMemory, p?.virtualMemoryBytes),
                                (M.processResidentMemory, p?.residentMemoryBytes), (M.processStartTime, p?.startTime),
                                (M.processThreads, p?.threads.map(Double.init))] {
            w.start(family)
            if let value { w.begin(); w.end(value) }
        }

        return w.buffer
    }
}
