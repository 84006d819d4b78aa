import Foundation

/// A parsed Prometheus text format 0.0.4 exposition: HELP and TYPE per family, and the samples in order.
///
/// Strict enough to catch what a scraper would reject (a sample line that does not parse throws), lenient
/// about what the format allows (comments, blank lines, timestamps).
public struct Exposition: Sendable {
    /// `# HELP` text per family, unescaped.
    public var help: [String: String] = [:]
    /// `# TYPE` per family.
    public var type: [String: String] = [:]
    /// Family names in the order their HELP lines appear.
    public var families: [String] = []
    /// Every sample, in order.
    public var samples: [ExpositionSample] = []

    /// Parses `text`; throws on a line that is not a comment, blank, or a well-formed sample.
    public init(_ text: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                readComment(line)
                continue
            }
            guard let sample = ExpositionSample(line) else {
                throw HarnessError("exposition line \(number + 1) does not parse: \(line)")
            }
            samples.append(sample)
        }
    }

    /// Distinct names that have at least one sample.
    public var sampledNames: Set<String> { Set(samples.map(\.name)) }

    /// Samples of `name` whose labels include every pair of `labels`.
    public func samples(_ name: String, _ labels: [String: String] = [:]) -> [ExpositionSample] {
        samples.filter { s in s.name == name && labels.allSatisfy { s.labels[$0.key] == $0.value } }
    }

    /// The value of the only sample of `name` matching `labels`; nil when there is none or more than one.
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let found = samples(name, labels)
        return found.count == 1 ? found[0].value : nil
    }

    /// Samples whose `target` label is `target`.
    public func samples(target: String) -> [ExpositionSample] { samples.filter { $0.labels["target"] == target } }

    /// Keeps a `# HELP` or `# TYPE` line; any other comment means nothing to a scraper.
    private mutating func readComment(_ line: Substring) {
        guard line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") else { return }
        let rest = line.dropFirst(7)
        let name = String(rest.prefix { $0 != " " })
        let text = rest.dropFirst(name.count).drop { $0 == " " }
        if line.hasPrefix("# HELP ") {
            help[name] = Self.unescape(String(text))
            families.append(name)
        } else {
            type[name] = String(text)
        }
    }

    static func unescape(_ s: String) -> String {
        var out = ""
        var escaping = false
        for c in s {
            if escaping {
                out.append(c == "n" ? "\n" : c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
