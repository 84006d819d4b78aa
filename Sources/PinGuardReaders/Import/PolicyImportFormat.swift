import PinGuardCore

/// The pin configuration formats `pinguard import` reads; raw values are the `--format` names.
///
/// Every format is imported with `require_system_trust: true` and `fail_strategy: strict`, because each of
/// these clients validates the chain against its trust store before looking at pins. A report-only
/// configuration becomes `allow_system_trust_fallback: true`: a pin mismatch is accepted, a chain that fails
/// system trust is still rejected (which `permissive` would accept).
public enum PolicyImportFormat: String, Sendable, CaseIterable {
    /// TrustKit (iOS/macOS): `TSKConfiguration` in an Info.plist (XML or binary) or a JSON document, either the
    /// configuration itself or a dictionary containing it; or Swift / Objective-C source passing a dictionary
    /// literal to `initSharedInstance(withConfiguration:)` (see `TrustKitSourceReader`). Pins are `spki`, scope `any`; `TSKIncludeSubdomains`
    /// gives `**.`; `TSKExpirationDate` gives `expires` at 00:00 UTC of that day; an excluded subdomain gives an
    /// exact rule with no pins; `TSKEnforcePinning: false` is report-only.
    case trustkit
    /// Apple App Transport Security `NSAppTransportSecurity.NSPinnedDomains` in an Info.plist (XML or binary):
    /// leaf identities are `spki` pins scope `leaf` group `leaf`, CA identities `ca` pins group `ca`, and with
    /// both lists `match: each_group` (ATS requires a match in each).
    case nspinneddomains
    /// Android Network Security Configuration (`res/xml/network_security_config.xml`): `domain-config`s with
    /// inherited pin-sets, `includeSubdomains` as `**.`, `expiration` as `expires` at 00:00 UTC; a pin-set in
    /// `base-config` and `debug-overrides` are reported, not imported (Android rejects the former, the latter
    /// applies to debug builds only); `overridePins` on system anchors is report-only; trust anchors that are only
    /// bundled `@raw/` certificates are CA pinning (`ca` pins, when the caller supplies the certificates).
    case androidNSC = "android-nsc"
    /// OkHttp `CertificatePinner.Builder().add(pattern, pins…)` calls in Kotlin or Java source (literals,
    /// same-file constants, `+` concatenation, array varargs). A host gets the pins of every matching pattern,
    /// so rules include the pins of broader patterns. `sha1/` pins are SHA-1 pins of the SubjectPublicKeyInfo, as OkHttp 3 and 4 match them.
    case okhttp
    /// HTTP Public Key Pinning (RFC 7469) `Public-Key-Pins` / `Public-Key-Pins-Report-Only` header lines (folded
    /// values joined), nginx `add_header` and Apache `Header set` directives that send them. The
    /// host comes from a preceding `Host:` line or a non-header line with an `https://host` URL (a comment, a curl
    /// command), else from the import's `name` when that is a host name. Headers a UA would not note (no
    /// max-age, fewer than two pins, repeated directives) are reported, not imported; `max-age` is not modelled.
    case hpkp

    /// The client a set imported from this format stands for: Apple's formats are iOS, Android's is Android,
    /// OkHttp runs on the JVM, and HPKP was a browser's (Chrome's) header.
    public var client: CTClient {
        switch self {
        case .trustkit, .nspinneddomains: .ios
        case .androidNSC: .android
        case .okhttp: .jvm
        case .hpkp: .chrome
        }
    }
}
