import Foundation

/// Appends the samples of declared metric families to a byte buffer, in Prometheus text format 0.0.4.
///
/// The writer is always inside one family: `init` or `start` writes its HELP and TYPE lines and makes it
/// current, and each sample is `begin()`, one `label` per declared label name in declared order, `end(value)`.
/// Names and label names come from the `MetricFamily`, so a sample cannot carry a name or a label name its
/// HELP/TYPE lines do not announce. Writing directly into one buffer, without a string per series, is what
/// keeps a 10,000-target scrape fast.
struct ExpositionWriter {
    /// The exposition written so far.
    private(set) var buffer: [UInt8] = []
    /// The family samples are written for.
    private var family: MetricFamily
    /// Labels written in the current sample.
    private var labelsWritten = 0

    /// A writer with room for about `capacity` bytes that starts with the HELP and TYPE lines of `family`
    /// (or, without `header`, with its first sample: a slice of a family whose lines are sent elsewhere).
    init(_ family: MetricFamily, capacity: Int, header: Bool = true) {
        self.family = family
        buffer.reserveCapacity(capacity + 512)
        if header { writeHeader() }
    }

    /// Writes the HELP and TYPE lines of `family` and makes it the family of the following samples.
    mutating func start(_ family: MetricFamily) {
        assert(labelsWritten == 0, "sample of \(self.family.name) not ended")
        self.family = family
        writeHeader()
    }

    /// Starts a sample of the current family.
    mutating func begin() {
        append(family.staticName)
        labelsWritten = 0
    }

    /// The value of the next declared label.
    mutating func label(_ value: String) {
        writeLabelName()
        appendEscaped(value, quotes: true)
        buffer.append(UInt8(ascii: "\""))
    }

    /// The value of the next declared label.
    mutating func label(_ value: Int) {
        writeLabelName()
        appendInteger(Int64(value))
        buffer.append(UInt8(ascii: "\""))
    }

    /// A label beyond the declared ones (`pinguard_target_info`'s target labels), after all of them;
    /// `name` must be a valid label name (checked where the labels are read).
    mutating func extraLabel(_ name: String, _ value: String) {
        buffer.append(labelsWritten == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        buffer.append(contentsOf: name.utf8)
        buffer.append(UInt8(ascii: "=")); buffer.append(UInt8(ascii: "\""))
        appendEscaped(value, quotes: true)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Ends the sample with a Unix timestamp in seconds.
    mutating func end(_ date: Date) { end(date.timeIntervalSince1970) }

    /// Ends the sample with `value`: whole numbers without a decimal point, NaN and ±Inf as Prometheus spells them.
    mutating func end(_ value: Double) {
        // A label count that differs from the declaration is a bug in the renderer: debug builds (the tests,
        // which render every family) stop here; a release build still writes a parseable line.
        assert(labelsWritten == family.staticLabels.count, "\(family.name): \(labelsWritten) label values for \(family.labels)")
        if labelsWritten > 0 { buffer.append(UInt8(ascii: "}")) }
        labelsWritten = 0
        buffer.append(UInt8(ascii: " "))
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else if value.isNaN {
            append("NaN")
        } else if value.isInfinite {
            append(value > 0 ? "+Inf" : "-Inf")
        } else {
            buffer.append(contentsOf: String(value).utf8)
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    private mutating func writeHeader() {
        append("# HELP "); append(family.staticName); buffer.append(UInt8(ascii: " "))
        appendEscaped(family.help, quotes: false); buffer.append(UInt8(ascii: "\n"))
        append("# TYPE "); append(family.staticName); buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: family.type.rawValue.utf8); buffer.append(UInt8(ascii: "\n"))
    }

    /// `{name="` or `,name="` of the next declared label.
    private mutating func writeLabelName() {
        buffer.append(labelsWritten == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        if labelsWritten < family.staticLabels.count {
            append(family.staticLabels[labelsWritten])
        } else {
            assertionFailure("\(family.name): more label values than declared labels \(family.labels)")
            append("undeclared")
        }
        buffer.append(UInt8(ascii: "=")); buffer.append(UInt8(ascii: "\""))
        labelsWritten += 1
    }

    private mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    private mutating func appendInteger(_ v: Int64) {
        if v < 0 { buffer.append(UInt8(ascii: "-")) }
        var n = v.magnitude
        if n < 10 { buffer.append(UInt8(ascii: "0") + UInt8(n)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while n > 0 {
                d[count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(d[i]) }
        }
    }

    /// Appends `s` escaped as the text format wants (`\\`, `\n`, and `\"` in label values). Other control bytes
    /// (CR, NUL, ESC, DEL) have no escape in the format and break its readers: text from a server may carry
    /// them, so each becomes U+FFFD here, the one place every label value and help text passes through.
    private mutating func appendEscaped(_ s: String, quotes: Bool) {
        var s = s
        s.withUTF8 { bytes in
            // Fast path: most values need no escaping and are copied in one go.
            if !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") || (quotes && $0 == UInt8(ascii: "\"")) }) {
                buffer.append(contentsOf: bytes)
                return
            }
            for b in bytes {
                switch b {
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(b)
                case UInt8(ascii: "\n"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\"") where quotes: buffer.append(UInt8(ascii: "\\")); buffer.append(b)
                case 0..<0x20, 0x7F: buffer.append(contentsOf: [0xEF, 0xBF, 0xBD])
                default: buffer.append(b)
                }
            }
        }
    }
}
