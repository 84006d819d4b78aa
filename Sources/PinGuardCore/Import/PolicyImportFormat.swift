/// The pin configuration formats `pinguard import` reads; raw values are the `--format` names.
public enum PolicyImportFormat: String, Sendable, CaseIterable {
    /// TrustKit (iOS/macOS): `TSKConfiguration` in an Info.plist (XML or binary) or a JSON document.
    case trustkit
    /// Apple App Transport Security `NSPinnedDomains` in an Info.plist (XML or binary).
    case nspinneddomains
    /// Android Network Security Configuration (`res/xml/network_security_config.xml`).
    case androidNSC = "android-nsc"
    /// OkHttp `CertificatePinner.Builder().add(...)` calls in Kotlin or Java source.
    case okhttp
    /// HTTP Public Key Pinning (RFC 7469) `Public-Key-Pins` / `Public-Key-Pins-Report-Only` header lines.
    case hpkp
}
