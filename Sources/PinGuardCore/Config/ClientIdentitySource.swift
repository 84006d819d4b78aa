/// Where a target's mTLS client identity comes from: target keys `client_cert` + `client_key` (PEM), or
/// `client_pkcs12` + `client_pkcs12_password_file` (docs/reference.md, Configuration).
public enum ClientIdentitySource: Sendable, Hashable {
    /// A PEM certificate (the leaf first, then any intermediates to send) and a PEM private key; both may
    /// be the same file.
    case pem(certificate: String, key: String)
    /// A PKCS#12 file and the file holding its password (nil: an empty password).
    case pkcs12(file: String, passwordFile: String?)

    /// The files the identity is read from, each with the config key that names it.
    public var files: [(key: String, path: String)] {
        switch self {
        case .pem(let certificate, let key):
            return [("client_cert", certificate), ("client_key", key)]
        case .pkcs12(let file, let passwordFile):
            return [("client_pkcs12", file)] + (passwordFile.map { [("client_pkcs12_password_file", $0)] } ?? [])
        }
    }

    /// The same source with every relative path resolved by `resolve`.
    public func mapPaths(_ resolve: (String) -> String) -> ClientIdentitySource {
        switch self {
        case .pem(let certificate, let key): return .pem(certificate: resolve(certificate), key: resolve(key))
        case .pkcs12(let file, let passwordFile): return .pkcs12(file: resolve(file), passwordFile: passwordFile.map(resolve))
        }
    }
}
