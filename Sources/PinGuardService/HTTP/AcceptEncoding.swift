import Foundation

/// Reads an `Accept-Encoding` request header (RFC 9110 §12.5.3) for the one coding pinguard sends.
enum AcceptEncoding {
    /// Whether the header values allow gzip: `gzip` (or `x-gzip`) with a non-zero weight, or `*` with a
    /// non-zero weight and gzip not refused by name. No header, or one that names no acceptable gzip, means
    /// the plain body (identity is always acceptable to pinguard's clients).
    static func allowsGzip(_ values: [String]) -> Bool {
        var named: Double?
        var wildcard: Double?
        for value in values {
            for item in value.split(separator: ",") {
                let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let coding = fields.first?.lowercased(), !coding.isEmpty else { continue }
                var weight = 1.0
                for parameter in fields.dropFirst() {
                    let kv = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if kv.count == 2, kv[0].lowercased() == "q" { weight = Double(kv[1]).map { min(max($0, 0), 1) } ?? 0 }
                }
                switch coding {
                case "gzip", "x-gzip": named = max(named ?? 0, weight)
                case "*": wildcard = weight
                default: break
                }
            }
        }
        if let named { return named > 0 }
        return (wildcard ?? 0) > 0
    }
}
