import Foundation

/// How a policy measures a certificate's lifetime in days for its lifetime table.
public enum CTLifetimeCount: String, Sendable, Equatable {
    /// notAfter − notBefore in seconds, compared with the table's days × 86,400 (Chrome).
    case seconds
    /// notBefore through notAfter inclusive (RFC 5280), any part of a day counting as a day (Apple).
    case inclusiveDays
    /// Whole days, the remainder dropped (Conscrypt's `TimeUnit.DAYS.convert`).
    case truncatedDays

    /// The lifetime in days of a certificate valid from `notBefore` to `notAfter`, as this count measures it.
    public func days(from notBefore: Date, to notAfter: Date) -> Double {
        let seconds = notAfter.timeIntervalSince(notBefore)
        switch self {
        case .seconds: return seconds / 86_400
        case .inclusiveDays: return ((seconds + 1) / 86_400).rounded(.up)
        case .truncatedDays: return (seconds / 86_400).rounded(.down)
        }
    }
}
