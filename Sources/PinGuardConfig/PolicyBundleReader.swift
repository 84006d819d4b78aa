import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardFiles
import PinGuardCrypto

/// Reads configured policy bundles from disk and verifies them (`BundleSignatureVerifier`). A bad key file is a
/// configuration error; a bad bundle is a status (clients reject it, pinguard reports it and keeps running).
public enum PolicyBundleReader {
    /// The largest bundle, key or secret file read.
    public static let maximumFileSize = 4 << 20

    /// The status of each bundle. Throws for key and built-in policy files that cannot be used, naming them.
    public static func read(_ bundles: [PolicyBundle]) throws(ConfigError) -> [PolicyBundleStatus] {
        var out: [PolicyBundleStatus] = []
        for b in bundles {
            var secrets: [String: [UInt8]] = [:]
            var keys: [String: BundleSignatureVerifier.PublicKey] = [:]
            for (id, file) in b.hmacSecrets {
                secrets[id] = try bytes(file, key: "policy_bundles.\(b.name).hmac_secrets.\(id)")
                if secrets[id]?.isEmpty == true { throw configError(file, "policy_bundles.\(b.name).hmac_secrets.\(id)", "the secret file is empty") }
            }
            for (id, file) in b.ecdsaPublicKeys {
                let key = "policy_bundles.\(b.name).ecdsa_public_keys.\(id)"
                let pem = try bytes(file, key: key)
                do throws(ProbeError) { keys[id] = try BundleSignatureVerifier.PublicKey(pem: pem, name: file) } catch {
                    throw ConfigError(file: file, line: nil, key: key, message: error.message.replacingOccurrences(of: "\(file): ", with: ""))
                }
            }
            var builtin: PolicySet?
            if let file = b.builtinPolicy {
                let text = try ConfigurationLoader.readText(file)
                var set = try PolicyParser.parse(text, file: file)
                set.name = b.name
                builtin = set
            }
            out.append(status(of: b, secrets: secrets, keys: keys, builtin: builtin))
        }
        return out
    }

    static func status(of b: PolicyBundle, secrets: [String: [UInt8]], keys: [String: BundleSignatureVerifier.PublicKey],
                       builtin: PolicySet?) -> PolicyBundleStatus {
        var scheme: SignedBlob.Scheme?
        do throws(PolicyBundleError) {
            let data: [UInt8]
            do throws(RegularFileError) { data = try RegularFile.read(b.file, maxBytes: maximumFileSize) } catch {
                throw PolicyBundleError(error.code == .tooLarge ? .malformed : .unreadable,
                                        error.code == .tooLarge ? "larger than 4 MiB" : "cannot read \(error)")
            }
            let blob = try SignedBlob.parse([UInt8](data))
            scheme = blob.scheme
            try BundleSignatureVerifier.verify(blob, hmacSecrets: secrets, ecdsaKeys: keys)
            // Only a verified payload is decoded, as the client does: an unverified one is never trusted.
            let set = try RemoteConfigPayload.policySet(blob.payload, name: b.name, environment: b.environment)
            return PolicyBundleStatus(bundle: b, state: .valid, scheme: scheme, kept: .bundle, policySet: set, lastVerified: set)
        } catch {
            return .rejected(b, error, scheme: scheme, previous: nil, builtin: builtin)
        }
    }

    static func bytes(_ file: String, key: String) throws(ConfigError) -> [UInt8] {
        do throws(RegularFileError) { return try RegularFile.read(file, maxBytes: maximumFileSize) } catch {
            throw configError(file, key, error.code == .tooLarge ? "larger than 4 MiB" : error.reason)
        }
    }

    static func configError(_ file: String, _ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: nil, key: key, message: message)
    }
}
