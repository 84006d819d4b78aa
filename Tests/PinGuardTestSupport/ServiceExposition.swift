import Foundation

/// One sample line of a Prometheus text exposition.
public struct ExpositionSample: Sendable, Equatable, CustomStringConvertible {
    /// Metric name.
    public var name: String
    /// Label pairs, values unescaped.
    public var labels: [String: String]
    /// The value (`NaN`, `+Inf`, `-Inf` understood).
    public var value: Double

    public var description: String {
        "\(name){\(labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ","))} \(value)"
    }
}

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
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let rest = line.dropFirst(7)
                let name = String(rest.prefix { $0 != " " })
                let text = rest.dropFirst(name.count).drop { $0 == " " }
                if line.hasPrefix("# HELP ") {
                    help[name] = Self.unescape(String(text))
                    families.append(name)
                } else {
                    type[name] = String(text)
                }
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let sample = Self.parseSample(Substring(line)) else {
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

    static func parseSample(_ line: Substring) -> ExpositionSample? {
        var i = line.startIndex
        let nameEnd = line.firstIndex { $0 == "{" || $0 == " " } ?? line.endIndex
        let name = String(line[i..<nameEnd])
        guard isMetricName(name) else { return nil }
        i = nameEnd
        var labels: [String: String] = [:]
        if i < line.endIndex, line[i] == "{" {
            i = line.index(after: i)
            while i < line.endIndex, line[i] != "}" {
                guard let eq = line[i...].firstIndex(of: "=") else { return nil }
                let key = String(line[i..<eq])
                guard isLabelName(key), labels[key] == nil else { return nil }
                i = line.index(after: eq)
                guard i < line.endIndex, line[i] == "\"" else { return nil }
                i = line.index(after: i)
                var value = ""
                var closed = false
                while i < line.endIndex {
                    let c = line[i]
                    if c == "\\" {
                        i = line.index(after: i)
                        guard i < line.endIndex else { return nil }
                        switch line[i] {
                        case "n": value.append("\n")
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        default: return nil
                        }
                    } else if c == "\"" {
                        closed = true
                        i = line.index(after: i)
                        break
                    } else {
                        value.append(c)
                    }
                    i = line.index(after: i)
                }
                guard closed else { return nil }
                labels[key] = value
                if i < line.endIndex, line[i] == "," { i = line.index(after: i) }
            }
            guard i < line.endIndex else { return nil }
            i = line.index(after: i)
        }
        let fields = line[i...].split(separator: " ")
        guard fields.count == 1 || fields.count == 2, let value = parseValue(fields[0]) else { return nil }
        return ExpositionSample(name: name, labels: labels, value: value)
    }

    static func parseValue(_ text: Substring) -> Double? {
        switch text {
        case "NaN": return .nan
        case "+Inf": return .infinity
        case "-Inf": return -.infinity
        default:
            // Swift's Double("inf") would accept what Prometheus does not.
            guard text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else { return nil }
            return Double(text)
        }
    }

    static func isMetricName(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    static func isLabelName(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
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
