/// One metric family of the /metrics exposition, declared once: its name, type, help text and label names.
///
/// Every sample is written through its family (see `ExpositionWriter`), so the name on the HELP and TYPE
/// lines and on the samples cannot drift apart, and the label names come from the declaration in the
/// declared order; the renderer supplies only the label values. The bytes the writer needs per sample are
/// computed here once rather than on every scrape.
public struct MetricFamily: Sendable, Equatable {
    /// The metric name, e.g. `pinguard_probe_success`.
    public let name: String
    /// Gauge or counter.
    public let type: MetricType
    /// The HELP text (escaped when written).
    public let help: String
    /// Label names, in the order every sample writes them; empty for a label-less family.
    public let labels: [String]

    /// The name as bytes, written at the start of every sample.
    let nameBytes: [UInt8]
    /// Per label, what precedes its value: `{target="` for the first, `,depth="` for the others.
    let labelPrefixes: [[UInt8]]

    /// Declares a family. `help` is written as is, so values from the latest probe say so in the text.
    public init(_ name: String, _ type: MetricType, labels: [String] = [], help: String) {
        self.name = name
        self.type = type
        self.help = help
        self.labels = labels
        nameBytes = Array(name.utf8)
        labelPrefixes = labels.enumerated().map { i, label in Array(((i == 0 ? "{" : ",") + label + "=\"").utf8) }
    }
}
