import Foundation

/// One sample line of a Prometheus text exposition.
public struct ExpositionSample: Sendable, Equatable, CustomStringConvertible {
    /// Metric name.
    public var name: String
    /// Label pairs, values unescaped.
    public var labels: [String: String]
    /// Label names in the order the line writes them.
    public var labelNames: [String]
    /// The value (`NaN`, `+Inf`, `-Inf` understood).
    public var value: Double

    /// `name{label="value",...} value`, labels sorted: for failure messages.
    public var description: String {
        "\(name){\(labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ","))} \(value)"
    }

    /// Parses one sample line (`name{labels} value [timestamp]`); nil when a scraper would reject it.
    public init?(_ line: Substring) {
        var rest = line
        let name = String(rest.prefix { $0 != "{" && $0 != " " })
        guard Self.isMetricName(name) else { return nil }
        rest = rest.dropFirst(name.count)
        var labels: [(String, String)] = []
        if rest.first == "{" {
            rest = rest.dropFirst()
            guard let read = Self.readLabels(&rest) else { return nil }
            labels = read
        }
        let fields = rest.split(separator: " ")
        guard fields.count == 1 || fields.count == 2, let value = Self.parseValue(fields[0]) else { return nil }
        self.name = name
        self.labels = Dictionary(labels, uniquingKeysWith: { first, _ in first })
        self.labelNames = labels.map(\.0)
        self.value = value
    }

    /// Reads `key="value",...}` from the front of `rest`, leaving what follows the closing brace.
    private static func readLabels(_ rest: inout Substring) -> [(String, String)]? {
        var labels: [(String, String)] = []
        while let first = rest.first, first != "}" {
            guard let eq = rest.firstIndex(of: "=") else { return nil }
            let key = String(rest[..<eq])
            guard isLabelName(key), !labels.contains(where: { $0.0 == key }) else { return nil }
            rest = rest[rest.index(after: eq)...]
            guard let value = readQuoted(&rest) else { return nil }
            labels.append((key, value))
            if rest.first == "," { rest = rest.dropFirst() }
        }
        guard rest.first == "}" else { return nil }
        rest = rest.dropFirst()
        return labels
    }

    /// Reads one double-quoted label value from the front of `rest`, undoing the format's three escapes.
    private static func readQuoted(_ rest: inout Substring) -> String? {
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()
        var value = ""
        while let c = rest.first {
            rest = rest.dropFirst()
            switch c {
            case "\"": return value
            case "\\":
                guard let escaped = rest.first, let meaning = escapes[escaped] else { return nil }
                rest = rest.dropFirst()
                value.append(meaning)
            default: value.append(c)
            }
        }
        return nil
    }

    /// The only escapes the text format defines inside a label value.
    private static let escapes: [Character: Character] = ["n": "\n", "\\": "\\", "\"": "\""]

    private static func parseValue(_ text: Substring) -> Double? {
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

    private static func isMetricName(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    private static func isLabelName(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
