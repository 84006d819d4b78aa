import Foundation

extension MetricsRendererTests {
    // MARK: - Reading the exposition back

    /// One sample line, label values unescaped.
    struct ParsedSample {
        var name: String
        var labels: [String: String] = [:]
        /// Label names in the order the line writes them.
        var labelNames: [String] = []
        var value: Double

        init?(_ line: Substring) {
            var rest = line[...]
            name = String(rest.prefix { $0 != "{" && $0 != " " })
            rest = rest.dropFirst(name.count)
            if rest.first == "{" {
                rest = rest.dropFirst()
                while rest.first != "}" {
                    guard let eq = rest.firstIndex(of: "=") else { return nil }
                    let key = String(rest[..<eq])
                    rest = rest[rest.index(after: eq)...]
                    guard rest.first == "\"" else { return nil }
                    rest = rest.dropFirst()
                    var v = ""
                    while let c = rest.first, c != "\"" {
                        rest = rest.dropFirst()
                        if c == "\\" {
                            guard let e = rest.first else { return nil }
                            rest = rest.dropFirst()
                            switch e {
                            case "n": v.append("\n")
                            case "\\", "\"": v.append(e)
                            default: return nil
                            }
                        } else {
                            guard c != "\n" else { return nil }
                            v.append(c)
                        }
                    }
                    guard rest.first == "\"" else { return nil }
                    rest = rest.dropFirst()
                    labels[key] = v
                    labelNames.append(key)
                    if rest.first == "," { rest = rest.dropFirst() }
                }
                rest = rest.dropFirst()
            }
            guard rest.first == " ", let v = Double(rest.dropFirst()) else { return nil }
            value = v
        }
    }

    func allSamples(_ text: String) -> [ParsedSample] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap(ParsedSample.init)
    }

    func samples(_ text: String, _ name: String, _ match: [String: String] = [:]) -> [ParsedSample] {
        allSamples(text).filter { s in s.name == name && match.allSatisfy { s.labels[$0.key] == $0.value } }
    }

    func value(_ text: String, _ name: String, _ match: [String: String]) -> Double? {
        let found = samples(text, name, match)
        return found.count == 1 ? found[0].value : nil
    }

    func labels(_ text: String, _ name: String, _ label: String) -> [String] {
        samples(text, name).compactMap { $0.labels[label] }
    }
}
