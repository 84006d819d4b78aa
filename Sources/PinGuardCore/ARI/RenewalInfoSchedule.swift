import Foundation

/// When renewal information is asked for again (RFC 9773 §4.3): after the server's `Retry-After`, clamped to
/// 1 minute..1 day; 6 hours when it sends none; after errors, a backoff doubling from 1 minute to 1 day.
public enum RenewalInfoSchedule {
    /// The shortest wait honoured.
    public static let shortest: Double = 60
    /// The longest wait honoured.
    public static let longest: Double = 86_400
    /// The wait when the server sends no `Retry-After`.
    public static let unsaid: Double = 6 * 3600

    /// Seconds to wait after a response whose `Retry-After` is `header` (delta-seconds or an HTTP-date), at `now`.
    public static func wait(retryAfter header: String?, now: Date) -> Double {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return unsaid }
        if let seconds = Double(header), seconds.isFinite, header.allSatisfy(\.isASCIIDigit) { return clamp(seconds) }
        guard let date = httpDate(header) else { return unsaid }
        return clamp(date.timeIntervalSince(now))
    }

    /// Seconds to wait after `failures` failures in a row (1 or more).
    public static func backoff(failures: Int) -> Double {
        clamp(shortest * pow(2, Double(min(max(failures, 1), 20) - 1)))
    }

    static func clamp(_ seconds: Double) -> Double { min(max(seconds, shortest), longest) }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}

fileprivate extension Character {
    /// An ASCII digit 0-9.
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
}
