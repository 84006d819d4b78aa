/// A family whose series grow with the targets, and how one target's result writes its series into it.
///
/// `MetricsRenderer.targetSeries` is the table of these, in exposition order: the renderer keeps one
/// buffer per entry and hands each result to every entry, so the order of the buffers is the order of the
/// declarations and no writer is kept in step with a list by hand.
struct TargetSeries: Sendable {
    /// The family written.
    let family: MetricFamily
    /// A generous estimate of the bytes one target writes, to size a slice's buffer once.
    let bytesPerTarget: Int
    /// Writes `result`'s series (none, one or many) into the family's writer.
    let write: @Sendable (_ result: TargetResult, _ shared: inout TargetRender, _ into: inout ExpositionWriter) -> Void

    init(_ family: MetricFamily, bytesPerTarget: Int,
         write: @escaping @Sendable (TargetResult, inout TargetRender, inout ExpositionWriter) -> Void) {
        self.family = family
        self.bytesPerTarget = bytesPerTarget
        self.write = write
    }

    /// One series per address of the target, labelled `target` and `address`, where `value` gives one.
    static func perAddress(_ family: MetricFamily, bytesPerTarget: Int,
                           _ value: @escaping @Sendable (TargetResult, NodeResult) -> Double?) -> TargetSeries {
        TargetSeries(family, bytesPerTarget: bytesPerTarget) { r, _, w in
            for node in r.nodes {
                guard let v = value(r, node) else { continue }
                w.begin(); w.label(r.target.name); w.label(node.address); w.end(v)
            }
        }
    }

    /// An info series (value 1) per address, labelled `target`, `address` and the text `value` gives, where
    /// it gives one.
    static func perAddressInfo(_ family: MetricFamily, bytesPerTarget: Int,
                               _ value: @escaping @Sendable (NodeResult) -> String?) -> TargetSeries {
        TargetSeries(family, bytesPerTarget: bytesPerTarget) { r, _, w in
            for node in r.nodes {
                guard let v = value(node) else { continue }
                w.begin(); w.label(r.target.name); w.label(node.address); w.label(v); w.end(1)
            }
        }
    }

    /// One series per target, labelled `target`, where `value` gives one.
    static func perTarget(_ family: MetricFamily, bytesPerTarget: Int,
                          _ value: @escaping @Sendable (TargetResult) -> Double?) -> TargetSeries {
        TargetSeries(family, bytesPerTarget: bytesPerTarget) { r, _, w in
            guard let v = value(r) else { return }
            w.begin(); w.label(r.target.name); w.end(v)
        }
    }

    /// One series per target and policy set, labelled `target` and `policy_set`, where `value` gives one.
    static func perSet(_ family: MetricFamily, bytesPerTarget: Int,
                       _ value: @escaping @Sendable (TargetResult, Evaluation) -> Double?) -> TargetSeries {
        TargetSeries(family, bytesPerTarget: bytesPerTarget) { r, _, w in
            for e in r.evaluations {
                guard let v = value(r, e) else { continue }
                w.begin(); w.label(r.target.name); w.label(e.policySet); w.end(v)
            }
        }
    }
}

/// What the families of one target's result share while they are written: the certificate mode, and the
/// target's reported situations, assessed once for the three situation families.
struct TargetRender {
    /// `metrics.certificates`.
    let certificates: CertificateSeries
    private var reported: [Situation]?

    init(certificates: CertificateSeries) { self.certificates = certificates }

    /// The situations `r` reports (`SituationSeries.reported`), assessed on first use.
    mutating func situations(of r: TargetResult) -> [Situation] {
        if let reported { return reported }
        let assessed = SituationSeries.reported(r)
        reported = assessed
        return assessed
    }
}

extension TargetResult {
    /// Whether the target has more than one address: only then do its per-address verdicts and its count of
    /// distinct chains say more than its per-target series.
    var hasSeveralAddresses: Bool { nodes.count > 1 }
}
