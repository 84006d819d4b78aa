import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardFiles

/// Reads a web configuration strictly, as exporter-toolkit does: unknown keys are errors, and so are the
/// toolkit's options pinguard does not implement (named as such, not silently ignored).
public enum WebConfigParser {
    static let tlsKeys: Set<String> = ["cert_file", "key_file", "client_auth_type", "client_ca_file", "min_version",
                                       "max_version", "cipher_suites", "curve_preferences", "prefer_server_cipher_suites",
                                       "client_allowed_sans", "cert", "key", "client_ca"]
    /// Options of exporter-toolkit that pinguard refuses rather than ignores.
    static let unsupportedTLSKeys: Set<String> = ["cipher_suites", "curve_preferences", "client_allowed_sans", "cert", "key", "client_ca"]

    /// Parses `text` (the file at `file`); relative paths are resolved against the file's folder.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> WebConfig {
        var config = WebConfig()
        // An empty file is a valid configuration with nothing in it (plain HTTP).
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return config }
        let root = try YAMLValue.parse(text, file: file)
        if root.isNull { return config }
        let m = try root.mapping(allowed: ["tls_server_config", "http_server_config", "basic_auth_users", "rate_limit"])
        if let rate = m["rate_limit"] { throw rate.error("not supported by pinguard (its limits are built in)") }
        let base = (file as NSString).deletingLastPathComponent
        if let t = m["tls_server_config"], !t.isNull { config.tls = try tls(t, base: base) }
        if let h = m["http_server_config"], !h.isNull {
            let hm = try h.mapping(allowed: ["headers", "http2"])
            if let v = hm["http2"] { _ = try v.bool() }
            if let headers = hm["headers"], !headers.isNull {
                for (name, value) in try headers.entries() {
                    guard HTTPHeaderName.isToken(name) else { throw value.error("\"\(name)\" is not a header name") }
                    guard !HTTPHeaderName.reserved.contains(name.lowercased()) else {
                        throw value.error("the header \(name) is set by pinguard and cannot be configured")
                    }
                    let text = try value.string()
                    // Bytes, not characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
                    guard !text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                        throw value.error("a header value must be one line without control characters (CR, LF, NUL and the like)")
                    }
                    config.headers.append((name, text))
                }
            }
        }
        var costs: [Int] = []
        if let users = m["basic_auth_users"], !users.isNull {
            for (user, hash) in try users.entries() {
                guard !user.contains(":") else { throw hash.error("a user name cannot contain \":\"") }
                let h = try hash.nonEmptyString()
                switch BcryptHash.parse(h) {
                case .success(let parsed): costs.append(parsed.cost)
                case .failure(let error): throw hash.error(error.description)
                }
                config.basicAuthUsers[user] = h
            }
            config.unknownUserHash = BcryptHash.dummy(cost: costs.max() ?? 10)
        }
        return config
    }

    private static func tls(_ t: YAMLValue, base: String) throws(ConfigError) -> WebTLSConfig? {
        let m = try t.mapping(allowed: tlsKeys)
        for key in unsupportedTLSKeys.sorted() {
            if let v = m[key], !v.isNull {
                throw v.error("not supported by pinguard (pinguard uses swift-nio-ssl's defaults); remove it")
            }
        }
        if let v = m["prefer_server_cipher_suites"] { _ = try v.bool() }
        let cert = try m["cert_file"].map { v throws(ConfigError) in try v.nonEmptyString() }
        let key = try m["key_file"].map { v throws(ConfigError) in try v.nonEmptyString() }
        // As exporter-toolkit: a section without certificate and key means no TLS.
        if cert == nil && key == nil && m["client_ca_file"] == nil && m["client_auth_type"] == nil { return nil }
        guard let cert else { throw t.error("missing cert_file") }
        guard let key else { throw t.error("missing key_file") }
        var config = WebTLSConfig(certFile: resolve(cert, base), keyFile: resolve(key, base))
        for (path, name) in [(config.certFile, "cert_file"), (config.keyFile, "key_file")] {
            do throws(RegularFileError) { try RegularFile.check(path) } catch { throw m[name]!.error("cannot read \(error)") }
        }
        if let v = m["client_auth_type"] { config.clientAuth = try v.oneOf(WebTLSConfig.ClientAuth.self) }
        if let v = m["client_ca_file"] {
            let path = resolve(try v.nonEmptyString(), base)
            do throws(RegularFileError) { try RegularFile.check(path) } catch { throw v.error("cannot read \(error)") }
            guard config.clientAuth != .noClientCert else {
                throw v.error("client CAs are configured without a client_auth_type that uses them")
            }
            config.clientCAFile = path
        }
        if config.clientAuth.verifies && config.clientCAFile == nil {
            throw t.error("client_auth_type \(config.clientAuth.rawValue) needs client_ca_file")
        }
        if let v = m["min_version"] { config.minVersion = try v.oneOf(WebTLSConfig.Version.self) }
        if let v = m["max_version"] { config.maxVersion = try v.oneOf(WebTLSConfig.Version.self) }
        if let max = config.maxVersion, max.rawValue < config.minVersion.rawValue {
            throw m["max_version"]!.error("max_version \(max.rawValue) is below min_version \(config.minVersion.rawValue)")
        }
        return config
    }

    private static func resolve(_ path: String, _ base: String) -> String {
        path.hasPrefix("/") || base.isEmpty ? path : (base as NSString).appendingPathComponent(path)
    }
}
