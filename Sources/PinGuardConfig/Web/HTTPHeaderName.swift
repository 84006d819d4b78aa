/// Header names a web configuration may set.
enum HTTPHeaderName {
    /// Headers pinguard writes itself; configuring them would produce broken or duplicate responses.
    static let reserved: Set<String> = ["content-type", "content-length", "content-encoding", "transfer-encoding",
                                        "connection", "www-authenticate", "allow", "retry-after", "vary"]

    /// RFC 9110 token characters.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { s in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(s))
        }
    }
}
