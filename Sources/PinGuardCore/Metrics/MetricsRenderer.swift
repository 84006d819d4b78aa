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

    /// The families whose series grow with the targets, in exposition order (the order of
    /// `renderTargetFamilies`' buffers).
    public static let targetFamilies: [MetricFamily] = {
        typealias M = PinGuardMetrics
        return [M.probeSuccess, M.probeDuration, M.probeTimestamp, M.tlsVersionInfo, M.chainTrusted, M.certNotAfter,
                M.certNotBefore, M.certInfo, M.chainEarliestExpiry, M.targetInfo, M.targetAddresses, M.targetAddressesSkipped,
                M.targetDistinctChains, M.addressPolicyAccept, M.policyAccept, M.policyDecisionInfo, M.pinMatched, M.pinHorizon,
                M.reservePins, M.pinSetExpiry, M.mtlsClientCertificateRequested, M.mtlsClientCertificatePresented,
                M.clientCertificateNotAfter] + M.forecastFamilies + M.ctFamilies
    }()

    /// The HELP and TYPE lines of `family`.
    public static func header(_ family: MetricFamily) -> [UInt8] {
        ExpositionWriter(family, capacity: 0).buffer
    }

    /// The exposition as consecutive chunks (one or more families each), to be sent in order; without
    /// `serviceFamilies`, only the per-target families (what `GET /probe` answers).
    public static func renderChunks(_ s: MetricsSnapshot, serviceFamilies: Bool = true) -> [[UInt8]] {
        let perTarget = renderTargetFamilies(s.results, certificates: s.certificates, headers: true)
        guard serviceFamilies else { return perTarget }
        return perTarget + [renderMemoryFamilies(s.memory), renderServiceFamilies(s, coverage: BackupPinCoverage.compute(s.results))]
    }

    /// The series of `results` in the families of `targetFamilies`, one buffer per family in that order;
    /// without `headers`, samples only, so that the buffers of consecutive slices of the targets concatenate
    /// to the family's samples for all of them (what `/metrics` caches per slice).
    public static func renderTargetFamilies(_ results: some Collection<TargetResult>, certificates: CertificateSeries,
                                            headers: Bool) -> [[UInt8]] {
        typealias M = PinGuardMetrics
        let n = results.count
        // Generous per-target estimates: capacity that is never written costs address space, not memory,
        // while a buffer that has to grow holds its old and new copies at once.
        var success = ExpositionWriter(M.probeSuccess, capacity: n * 96, header: headers)
        var duration = ExpositionWriter(M.probeDuration, capacity: n * 128, header: headers)
        var timestamp = ExpositionWriter(M.probeTimestamp, capacity: n * 128, header: headers)
        var tls = ExpositionWriter(M.tlsVersionInfo, capacity: n * 128, header: headers)
        var trusted = ExpositionWriter(M.chainTrusted, capacity: n * 96, header: headers)
        var notAfter = ExpositionWriter(M.certNotAfter, capacity: n * 512, header: headers)
        var notBefore = ExpositionWriter(M.certNotBefore, capacity: n * 512, header: headers)
        var certInfo = ExpositionWriter(M.certInfo, capacity: n * 1600, header: headers)
        var earliest = ExpositionWriter(M.chainEarliestExpiry, capacity: n * 160, header: headers)
        var accept = ExpositionWriter(M.policyAccept, capacity: n * 320, header: headers)
        var decision = ExpositionWriter(M.policyDecisionInfo, capacity: n * 400, header: headers)
        var pinMatched = ExpositionWriter(M.pinMatched, capacity: n * 1200, header: headers)
        var horizon = ExpositionWriter(M.pinHorizon, capacity: n * 384, header: headers)
        var reserve = ExpositionWriter(M.reservePins, capacity: n * 256, header: headers)
        var pinSetExpiry = ExpositionWriter(M.pinSetExpiry, capacity: 1024, header: headers)
        var clientAuth = ExpositionWriter(M.mtlsClientCertificateRequested, capacity: n * 128, header: headers)
        var clientPresented = ExpositionWriter(M.mtlsClientCertificatePresented, capacity: 1024, header: headers)
        var clientNotAfter = ExpositionWriter(M.clientCertificateNotAfter, capacity: 1024, header: headers)

        var info = ExpositionWriter(M.targetInfo, capacity: 1024, header: headers)
        var addresses = ExpositionWriter(M.targetAddresses, capacity: n * 96, header: headers)
        var skipped = ExpositionWriter(M.targetAddressesSkipped, capacity: n * 96, header: headers)
        var distinct = ExpositionWriter(M.targetDistinctChains, capacity: n * 96, header: headers)
        var nodeAccept = ExpositionWriter(M.addressPolicyAccept, capacity: n * 320, header: headers)
        var forecast = ForecastWriters(targets: n, headers: headers)
        var ct = CTWriters(targets: n, headers: headers)

        for r in results {
            let name = r.target.name
            forecast.write(r)
            ct.write(r)
            for node in r.nodes {
                let facts = node.facts
                let address = node.address
                success.begin(); success.label(name); success.label(address); success.end(facts.success ? 1 : 0)
                duration.begin(); duration.label(name); duration.label(address); duration.end(facts.duration)
                timestamp.begin(); timestamp.label(name); timestamp.label(address); timestamp.end(facts.finishedAt)
                if let v = facts.tlsVersion {
                    tls.begin(); tls.label(name); tls.label(address); tls.label(v); tls.end(1)
                }
                if facts.success {
                    trusted.begin(); trusted.label(name); trusted.label(address); trusted.end(facts.trusted ? 1 : 0)
                }
                var earliestExpiry: Date?
                for c in facts.evaluatedChain {
                    earliestExpiry = min(earliestExpiry ?? c.notAfter, c.notAfter)
                    if certificates == .leaf && c.depth > 0 { continue }
                    notAfter.begin(); notAfter.label(name); notAfter.label(address); notAfter.label(c.depth); notAfter.end(c.notAfter)
                    notBefore.begin(); notBefore.label(name); notBefore.label(address); notBefore.label(c.depth); notBefore.end(c.notBefore)
                    certInfo.begin(); certInfo.label(name); certInfo.label(address); certInfo.label(c.depth); certInfo.label(c.subject)
                    certInfo.label(c.issuer); certInfo.label(c.serial); certInfo.label(c.spkiSHA256); certInfo.label(c.certSHA256)
                    certInfo.label(c.source.rawValue)
                    certInfo.end(1)
                }
                if let e = earliestExpiry {
                    earliest.begin(); earliest.label(name); earliest.label(address); earliest.end(e)
                }
                let c = facts.clientAuth
                if facts.success || c.requested {
                    clientAuth.begin(); clientAuth.label(name); clientAuth.label(address); clientAuth.end(c.requested ? 1 : 0)
                }
                if c.requested {
                    clientPresented.begin(); clientPresented.label(name); clientPresented.label(address); clientPresented.end(c.presented ? 1 : 0)
                }
                for e in node.evaluations where e.verdict != .none {
                    nodeAccept.begin(); nodeAccept.label(name); nodeAccept.label(address); nodeAccept.label(e.policySet)
                    nodeAccept.label(e.environment); nodeAccept.end(e.verdict == .accept ? 1 : 0)
                }
            }
            if let t = r.nodes.lazy.compactMap(\.facts.clientAuth.certificateNotAfter).first {
                clientNotAfter.begin(); clientNotAfter.label(name); clientNotAfter.end(t)
            }
            if !r.target.labels.isEmpty {
                info.begin(); info.label(name)
                for (k, v) in r.target.labels.sorted(by: { $0.key < $1.key }) { info.extraLabel(k, v) }
                info.end(1)
            }
            addresses.begin(); addresses.label(name); addresses.end(Double(r.nodes.count { $0.facts.address != nil }))
            skipped.begin(); skipped.label(name); skipped.end(Double(r.resolution.skipped))
            distinct.begin(); distinct.label(name); distinct.end(Double(WorstCase.distinctChains(r.nodes)))
            let anyChain = r.nodes.contains { $0.facts.success }
            for e in r.evaluations {
                if e.verdict != .none {
                    accept.begin(); accept.label(name); accept.label(e.policySet); accept.label(e.environment)
                    accept.end(e.verdict == .accept ? 1 : 0)
                }
                decision.begin(); decision.label(name); decision.label(e.policySet); decision.label(e.environment)
                decision.label(e.reason.rawValue); decision.end(1)
                if anyChain, let pins = e.policy?.pins {
                    for (i, p) in pins.enumerated() {
                        // Pins differing only in `group` would give the same series: emit the first.
                        if pins[..<i].contains(where: { $0.hash == p.hash && $0.role == p.role && $0.type == p.type && $0.scope == p.scope }) {
                            continue
                        }
                        pinMatched.begin(); pinMatched.label(name); pinMatched.label(e.policySet); pinMatched.label(p.hash)
                        pinMatched.label(p.role.rawValue); pinMatched.label(p.type.rawValue); pinMatched.label(p.scope.rawValue)
                        pinMatched.end(e.matchedPins.contains { $0.pin == p } ? 1 : 0)
                    }
                }
                if let h = e.pinHorizon {
                    horizon.begin(); horizon.label(name); horizon.label(e.policySet); horizon.end(h)
                }
                if e.isEvaluated {
                    reserve.begin(); reserve.label(name); reserve.label(e.policySet); reserve.end(Double(e.reservePins.count))
                }
                if let x = e.policy?.expires {
                    pinSetExpiry.begin(); pinSetExpiry.label(name); pinSetExpiry.label(e.policySet); pinSetExpiry.end(x)
                }
            }
        }

        let perTarget = [success, duration, timestamp, tls, trusted, notAfter, notBefore, certInfo, earliest,
                         info, addresses, skipped, distinct, nodeAccept, accept, decision, pinMatched, horizon, reserve, pinSetExpiry,
                         clientAuth, clientPresented, clientNotAfter]
        let buffers = perTarget.map(\.buffer) + forecast.buffers + ct.buffers
        assert(buffers.count == targetFamilies.count, "targetFamilies lists every per-target family in order")
        return buffers
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
