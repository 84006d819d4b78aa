import PinGuardCore

/// Reads a target's client identity keys (docs/reference.md, Configuration, target keys).
enum ClientIdentityParser {
    /// The target keys this parser reads.
    static let keys: Set<String> = ["client_cert", "client_key", "client_pkcs12", "client_pkcs12_password_file"]
    private static let sortedKeys = keys.sorted()

    /// The identity the keys of target mapping `m` describe, nil when none is set; records the line of each
    /// file key (`targets[N].client_cert`, ...) for errors found when the files are read.
    static func parse(_ m: [String: YAMLValue], lines: inout [String: Int]) throws(ConfigError) -> ClientIdentitySource? {
        // Most targets have no identity; sorting the keys for each of 100,000 targets showed in profiles.
        guard keys.contains(where: { m[$0] != nil }) else { return nil }
        var paths: [String: String] = [:]
        for key in sortedKeys {
            guard let v = m[key], !v.isNull else { continue }
            paths[key] = try v.nonEmptyString()
            lines[v.path] = v.line
        }
        if let p12 = paths["client_pkcs12"] {
            if let other = ["client_cert", "client_key"].first(where: { paths[$0] != nil }) {
                throw m[other]!.error("give either client_cert/client_key (PEM) or client_pkcs12, not both")
            }
            return .pkcs12(file: p12, passwordFile: paths["client_pkcs12_password_file"])
        }
        if paths["client_pkcs12_password_file"] != nil {
            throw m["client_pkcs12_password_file"]!.error("client_pkcs12_password_file needs client_pkcs12")
        }
        guard let certificate = paths["client_cert"] else {
            if paths["client_key"] != nil { throw m["client_key"]!.error("client_key needs client_cert") }
            return nil
        }
        // A PEM file holding both the certificate and its key is common (HAProxy, curl --cert): the key
        // defaults to the certificate's file.
        return .pem(certificate: certificate, key: paths["client_key"] ?? certificate)
    }
}
