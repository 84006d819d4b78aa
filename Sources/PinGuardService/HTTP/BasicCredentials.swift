import Foundation

/// The user and password of an `Authorization: Basic ...` header.
struct BasicCredentials: Sendable {
    let user: String
    let password: String

    /// Nil when the header is missing, not Basic, not base64 or has no colon.
    init?(authorization: String?) {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        user = String(text[..<colon])
        password = String(text[text.index(after: colon)...])
    }
}
