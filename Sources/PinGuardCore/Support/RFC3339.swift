import Foundation

/// RFC 3339 timestamps in UTC, as every output of pinguard writes them, in the proleptic Gregorian
/// calendar (`CivilDate`), with years 0000...9999 as RFC 3339 allows.
public enum RFC3339 {
    /// The earliest instant RFC 3339 can write, 0000-01-01T00:00:00Z.
    public static let earliest = Date(timeIntervalSince1970: Double(CivilDate(year: 0, month: 1, day: 1).daysSince1970) * 86_400)
    /// The latest instant RFC 3339 can write, 9999-12-31T23:59:59Z.
    public static let latest = Date(timeIntervalSince1970: Double(CivilDate(year: 9999, month: 12, day: 31).daysSince1970) * 86_400 + 86_399)

    /// `2027-06-30T12:00:00Z`: whole seconds, rounded down; dates outside 0000...9999 are clamped to
    /// the nearest end (`earliest`, `latest`), NaN formats as 1970-01-01T00:00:00Z.
    public static func format(_ date: Date) -> String {
        var t = date.timeIntervalSince1970
        if t.isNaN { t = 0 }
        t = min(max(t, earliest.timeIntervalSince1970), latest.timeIntervalSince1970)
        let seconds = Int(t.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let d = CivilDate(daysSince1970: days)
        return pad(d.year, 4) + "-" + pad(d.month, 2) + "-" + pad(d.day, 2) + "T"
            + pad(inDay / 3600, 2) + ":" + pad(inDay / 60 % 60, 2) + ":" + pad(inDay % 60, 2) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` (`T` and `Z` in either case); nil for anything
    /// else, including days that do not exist (2027-02-30). A leap second (`:60`) is accepted and
    /// counts as the next second.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 64 else { return nil }
        guard let date = parseDate(b[0..<10]), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = number(b, 11, 2), b[13] == UInt8(ascii: ":"), let minute = number(b, 14, 2),
              b[16] == UInt8(ascii: ":"), let second = number(b, 17, 2),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if b[i] == UInt8(ascii: ".") {
            var scale = 0.1
            i += 1
            let start = i
            while i < b.count, let digit = digit(b[i]) {
                fraction += Double(digit) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == b.count, let oh = number(b, i + 1, 2), b[i + 3] == UInt8(ascii: ":"),
                  let om = number(b, i + 4, 2), oh <= 23, om <= 59 else { return nil }
            offset = (oh * 60 + om) * 60 * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        default:
            return nil
        }
        guard i == b.count else { return nil }
        let seconds = date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `YYYY-MM-DD` (exactly ten bytes) as a valid date, or nil.
    static func parseDate(_ b: ArraySlice<UInt8>) -> CivilDate? {
        let a = Array(b)
        guard a.count == 10, let y = number(a, 0, 4), a[4] == UInt8(ascii: "-"), let m = number(a, 5, 2),
              a[7] == UInt8(ascii: "-"), let d = number(a, 8, 2) else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    /// The decimal number in `count` digits at `start`, or nil when any is not a digit.
    static func number(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= b.count else { return nil }
        var n = 0
        for i in start..<(start + count) {
            guard let d = digit(b[i]) else { return nil }
            n = n * 10 + d
        }
        return n
    }

    static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
