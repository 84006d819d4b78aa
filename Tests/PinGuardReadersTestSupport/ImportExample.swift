import PinGuardReaders

/// A committed import example: a source under `policies/sources/` and the policy it imports to, which
/// ImportExamplesTests keeps byte for byte and the core's lint tests lint.
public struct ImportExample: Sendable {
    public let format: PolicyImportFormat
    /// The source, relative to the repository root.
    public let source: String
    /// The policy set name the import is given.
    public let name: String

    /// The committed output, relative to the repository root.
    public var output: String { "policies/imported-\(format.rawValue).yml" }

    /// One example per import format.
    public static let committed = [
        ImportExample(format: .trustkit, source: "policies/sources/trustkit-Info.plist", name: "ios-app-trustkit"),
        ImportExample(format: .nspinneddomains, source: "policies/sources/nspinneddomains-Info.plist", name: "ios-wallet-ats"),
        ImportExample(format: .androidNSC, source: "policies/sources/network_security_config.xml", name: "android-app-nsc"),
        ImportExample(format: .okhttp, source: "policies/sources/ApiClient.kt", name: "android-app-okhttp"),
        ImportExample(format: .hpkp, source: "policies/sources/hpkp-headers.txt", name: "web-hpkp"),
    ]
}
