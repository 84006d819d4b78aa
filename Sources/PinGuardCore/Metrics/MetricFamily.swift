/// One metric family of the /metrics exposition, declared once: its name, type, help text and label names.
///
/// Every sample is written through its family (see `ExpositionWriter`), so the name on the HELP and TYPE
/// lines and on the samples cannot drift apart, and the label names come from the declaration in the
/// declared order; the renderer supplies only the label values. Name and label names are static strings:
/// the writer copies their bytes straight from the binary, with no reference counting per sample.
public struct MetricFamily: Sendable, Equatable {
    /// The metric name, e.g. `pinguard_probe_success`.
    public var name: String { staticName.description }
    /// Gauge or counter.
    public let type: MetricType
    /// The HELP text (escaped when written).
    public let help: String
    /// Label names, in the order every sample writes them; empty for a label-less family.
    public var labels: [String] { staticLabels.map(\.description) }

    let staticName: StaticString
    let staticLabels: [StaticString]

    /// Declares a family.
    public init(_ name: StaticString, _ type: MetricType, labels: [StaticString] = [], help: String) {
        staticName = name
        self.type = type
        self.help = help
        staticLabels = labels
    }

    /// Families are equal when everything they write is.
    public static func == (a: MetricFamily, b: MetricFamily) -> Bool {
        a.name == b.name && a.type == b.type && a.help == b.help && a.labels == b.labels
    }
}
