/// The Prometheus type of a metric family, written on its `# TYPE` line.
public enum MetricType: String, Sendable, CaseIterable {
    /// A value that can go up and down.
    case gauge
    /// A value that only grows from start; its name ends in `_total`.
    case counter
}
