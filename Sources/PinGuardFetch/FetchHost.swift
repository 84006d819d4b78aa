import Foundation
import PinGuardCore

/// The one spelling of a URL's host that the fetcher resolves, checks, verifies the certificate for and names in
/// its request.
///
/// A URL's host may be written many ways that name one host: upper case, percent-encoded, in Unicode, with a
/// trailing dot. The fetcher must resolve, check, verify and ask under exactly one of them. So the host is
/// decoded and folded once here (percent-decoding, lower case, NFC, IDNA's `xn--` form per label, one trailing
/// dot dropped), then held to `HostName`'s rule: the result is a host name of ASCII labels or an address literal,
/// and anything else is refused.
enum FetchHost {
    /// The canonical host of `raw` (a URL's host as written, an IPv6 literal with or without its brackets), or why it is refused.
    static func canonical(_ raw: String) -> Result<String, HostNameError> {
        let bare = raw.hasPrefix("[") && raw.hasSuffix("]") ? String(raw.dropFirst().dropLast()) : raw
        guard let decoded = bare.removingPercentEncoding else { return .failure(HostNameError("a malformed percent-encoding")) }
        let folded = decoded.precomposedStringWithCanonicalMapping.lowercased()
        guard folded.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }) else {
            return .failure(HostNameError("a control byte or space in the host"))
        }
        if folded.contains(":") { return HostName.validate(folded) }
        var labels: [String] = []
        for label in folded.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.unicodeScalars.allSatisfy(\.isASCII) else { labels.append(String(label)); continue }
            guard let encoded = Punycode.encode(String(label)) else { return .failure(HostNameError("a label IDNA cannot encode")) }
            labels.append("xn--" + encoded)
        }
        return HostName.validate(labels.joined(separator: "."))
    }
}
