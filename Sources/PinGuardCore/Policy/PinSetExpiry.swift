import Foundation

/// Pin-set expiration dates: `YYYY-MM-DD` means pins are enforced through that UTC day.
public enum PinSetExpiry {
    /// The instant enforcement stops, or nil when `text` is not a date. Dates are proleptic
    /// Gregorian (`CivilDate`), years 0000...9999.
    public static func parse(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.utf8.count == 10 {
            guard let day = RFC3339.parseDate(ArraySlice(t.utf8)) else { return nil }
            return Date(timeIntervalSince1970: Double(day.daysSince1970 + 1) * 86_400)
        }
        return RFC3339.parse(t)
    }
}
