/// RFC 3492 Punycode, the encoding half only: what turns an internationalised label into its `xn--` form
/// (IDNA's ToASCII after the label was lower-cased), so that a host spelt in Unicode is checked, pinned and
/// asked for under the one ASCII name the resolver and the HTTP client see.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The Punycode of `label`'s scalars (without the `xn--` prefix); nil when the label overflows.
    static func encode(_ label: String) -> String? {
        let scalars = label.unicodeScalars.map { Int($0.value) }
        var output: [UInt8] = scalars.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN, delta = 0, bias = initialBias
        while handled < scalars.count {
            guard let next = scalars.filter({ $0 >= n }).min() else { return nil }
            let (step, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - step else { return nil }
            delta += step
            n = next
            for c in scalars {
                if c < n { delta += 1 }
                guard c == n else { continue }
                output += digits(of: delta, bias: bias)
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `q` as generalised variable-length integer digits for `bias`.
    private static func digits(of value: Int, bias: Int) -> [UInt8] {
        var out: [UInt8] = []
        var q = value, k = base
        while true {
            let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
            if q < t { break }
            out.append(digit(t + (q - t) % (base - t)))
            q = (q - t) / (base - t)
            k += base
        }
        out.append(digit(q))
        return out
    }

    private static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(97 + d) : UInt8(22 + d)
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var d = first ? delta / damp : delta / 2
        d += d / points
        var k = 0
        while d > ((base - tMin) * tMax) / 2 {
            d /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * d / (d + skew)
    }
}
