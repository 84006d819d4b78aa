import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto

extension FuzzTarget {
    /// The leaf the SCTs of a fuzzed list are checked for: a self-signed P-256 certificate made for the fuzzer.
    static let sctLeaf = Array("""
        -----BEGIN CERTIFICATE-----
        MIIBkDCCATegAwIBAgIUTqr5Vf6JxHO1RjAMqa4r9bOsiQIwCgYIKoZIzj0EAwIw
        HTEbMBkGA1UEAwwSZnV6ei5waW5ndWFyZC50ZXN0MCAXDTI2MTEyNzA5MjIxOFoY
        DzIxMjYxMTAzMDkyMjE4WjAdMRswGQYDVQQDDBJmdXp6LnBpbmd1YXJkLnRlc3Qw
        WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQ8ssb5RkOV6A7a4/FAtUtTaC3ceUhB
        9knWQWTIJHOVK0FaKwf4W0QTBwKrjMjH6zzs5hlhAuFP4P8K3c81T845o1MwUTAd
        BgNVHQ4EFgQUJMjio3pdyi/WrKjePyC5YpKw2iIwHwYDVR0jBBgwFoAUJMjio3pd
        yi/WrKjePyC5YpKw2iIwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBE
        AiBUmKsN+QROMPZOwVKT4hWn+TBUj7pndePMQN8qn9kgIQIgLXItwGn6lYvlWmjN
        rDDt46h0AidU/UFDO46Uhuwts8s=
        -----END CERTIFICATE-----
        """.utf8)

    /// The logs of the bundled lists: an SCT naming one of them gets its signature checked.
    static let sctKeyring: CTLogKeyring? = {
        guard let lists = try? CTLogListsLoader.load(replacements: [:], relativeTo: nil) else { return nil }
        return try? CTLogKeyring(logs: lists.values.flatMap(\.logs))
    }()

    /// A `signed_certificate_timestamp` TLS extension as a server sends it: decoded and every SCT checked; it
    /// may be refused, never trap, hang or balloon, and never give more SCTs than the bound.
    func runSCTList(_ bytes: [UInt8]) {
        guard let keyring = Self.sctKeyring else { fatalError("the bundled CT log lists do not load") }
        guard let scts = try? SCTVerifier.extensionSCTs(bytes, leaf: Self.sctLeaf, keyring: keyring,
                                                         at: Date(timeIntervalSince1970: 1_800_000_000)) else { return }
        if scts.count > SCTVerifier.maxSCTs { fatalError("read \(scts.count) SCTs, more than \(SCTVerifier.maxSCTs)") }
    }

    /// The key a fuzzed CRL is verified with: the fuzzer's self-signed certificate's.
    static let crlIssuerKey: [UInt8] = (try? CertificateReader.load(sctLeaf, file: "fuzz.pem"))?.first?.publicKeyDER ?? []

    /// A CRL as downloaded from a distribution point: read and verified, and its facts read without
    /// verification too (so the entry and extension readers are fuzzed whatever the signature); it may be
    /// refused, never trap, hang or balloon.
    func runCRL(_ bytes: [UInt8]) {
        if case .success = CRLReader.read(bytes, issuerPublicKeyDER: Self.crlIssuerKey) { fatalError("a fuzzed CRL verified") }
        guard let list = CRLReader.unverifiedFacts(bytes) else { return }
        if list.revoked.count > bytes.count { fatalError("\(list.revoked.count) entries from \(bytes.count) bytes") }
        // The lean read (entries walked, not parsed) must say what OpenSSL's full parse says about the serials asked.
        let asked = Set(list.revoked.keys.filter { !$0.hasPrefix("-") }.prefix(8)).union(["1", "64"])
        guard let lean = CRLReader.unverifiedLeanFacts(bytes, only: asked) else { return }
        for serial in asked where lean.revoked[serial] != list.revoked[serial] {
            fatalError("serial \(serial): lean \(String(describing: lean.revoked[serial])), full \(String(describing: list.revoked[serial]))")
        }
    }
}
