/// Prometheus duration syntax: one or more `<number><unit>` with units y, w, d, h, m, s, ms.
public enum PromDuration {
    /// Seconds, or nil when `text` is not a duration. Huge numbers give a huge (possibly infinite)
    /// value, never a trap; callers compare it with their maximum.
    public static func parse(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("y", 31_536_000), ("w", 604_800), ("d", 86_400),
                                         ("h", 3_600), ("m", 60), ("s", 1)]
        var rest = Substring(text)
        var total = 0.0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let n = Double(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(unit.0.count)
            total += n * unit.1
        }
        return total.isNaN ? nil : total
    }

    /// Formats seconds as the shortest Prometheus duration (`1d2h`, `500ms`); values beyond what an
    /// `Int` holds are clamped, negative and NaN values format as `0s`.
    public static func format(_ seconds: Double) -> String {
        guard seconds > 0 else { return "0s" }
        if seconds < 1 { return "\(Int(saturating: (seconds * 1000).rounded()))ms" }
        var s = Int(saturating: seconds.rounded())
        var out = ""
        for (u, n) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where s >= n {
            out += "\(s / n)\(u)"
            s %= n
        }
        return out.isEmpty ? "0s" : out
    }
}
