import Foundation
import PinGuardCore

/// What the flags come to where a rule decides: the client identity `probe` sends, the ACME directory it asks, a
/// duration, a date, and the bound on a repeated option. The executable maps flags here and turns a refusal into a
/// usage error.
public enum FlagChoices {
    /// The identity the `--client-*` options name, read as the service reads `client_cert` / `client_pkcs12`; a
    /// refusal says which options do not go together.
    public static func clientIdentity(cert: String?, key: String?, pkcs12: String?,
                                      pkcs12PasswordFile: String?) -> Result<ClientIdentitySource?, Refusal> {
        if let pkcs12 {
            guard cert == nil, key == nil else { return .failure(Refusal("give --client-cert or --client-pkcs12, not both")) }
            return .success(.pkcs12(file: pkcs12, passwordFile: pkcs12PasswordFile))
        }
        guard pkcs12PasswordFile == nil else { return .failure(Refusal("--client-pkcs12-password-file needs --client-pkcs12")) }
        guard let cert else {
            return key == nil ? .success(nil) : .failure(Refusal("--client-key needs --client-cert"))
        }
        return .success(.pem(certificate: cert, key: key ?? cert))
    }

    /// Why `--acme-directory VALUE` is refused (neither an https URL nor `none`); nil when it is taken or not given.
    public static func acmeDirectoryRefusal(_ value: String?) -> String? {
        guard let value, value != RenewalSettings.noDirectory, !value.hasPrefix("https://") else { return nil }
        return "--acme-directory \(EchoedInput.quoted(value)) is not an https URL or none"
    }

    /// The seconds of a duration option (`500ms`, `10s`, `1m`), at most `max`; a refusal names the option.
    public static func duration(_ text: String, option: String, max: Double = 3_600) -> Result<Double, Refusal> {
        guard let v = PromDuration.parse(text), v > 0 else {
            return .failure(Refusal("\(option) \(EchoedInput.quoted(text)) is not a duration (use e.g. 500ms, 10s, 1m)"))
        }
        guard v <= max else {
            return .failure(Refusal("\(option) \(EchoedInput.quoted(text)) is longer than the maximum of \(PromDuration.format(max))"))
        }
        return .success(v)
    }

    /// A date option: `YYYY-MM-DD` is the start of that UTC day (pin-set expiry dates mean its end); else RFC 3339.
    public static func date(_ text: String) -> Date? {
        if text.count == 10, let endOfDay = PinSetExpiry.parse(text) { return endOfDay.addingTimeInterval(-86_400) }
        return RFC3339.parse(text)
    }

    /// Why an option repeated more than `limit` times among `arguments` (the program name excluded) is refused,
    /// naming the first such option; nil when none is.
    public static func repeatedOptionRefusal(_ arguments: some Sequence<String>, limit: Int) -> String? {
        var counts: [Substring: Int] = [:]
        for argument in arguments where argument.hasPrefix("--") {
            let option = argument.split(separator: "=", maxSplits: 1)[0]
            counts[option, default: 0] += 1
            if counts[option, default: 0] > limit {
                return "pinguard: \(EchoedInput.bare(option, limit: 40)) is given more than \(limit) times; put definitions in a --defines file"
            }
        }
        return nil
    }

    /// A combination of flags that is refused, and why.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// Which flags do not go together.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
