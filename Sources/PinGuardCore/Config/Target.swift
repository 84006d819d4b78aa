import Foundation

/// One configured probe target (docs/reference.md, Configuration).
///
/// The settings live in one shared, copy-on-write `TargetSettings`: every result of a target holds a copy of
/// it, and a copy costs 8 bytes instead of the settings themselves. Reading and writing the properties
/// behaves as on a plain struct.
public struct Target: Sendable, Equatable {
    private var settings: TargetSettings

    /// Server name: SNI, hostname check, pattern matching.
    public var host: String {
        get { settings.host }
        set { unique().host = newValue }
    }
    /// TCP port.
    public var port: Int {
        get { settings.port }
        set { unique().port = newValue }
    }
    /// Addresses (or names) to dial instead of resolving `host`; empty = resolve `host`.
    public var connect: [String] {
        get { settings.connect }
        set { unique().connect = newValue }
    }
    /// Which resolved addresses are probed.
    public var resolve: ResolveMode {
        get { settings.resolve }
        set { unique().resolve = newValue }
    }
    /// At most this many addresses are probed (`max_addresses`); the rest are counted as skipped.
    public var maxAddresses: Int {
        get { settings.maxAddresses }
        set { unique().maxAddresses = newValue }
    }
    /// Environment whose policies apply.
    public var environment: String {
        get { settings.environment }
        set { unique().environment = newValue }
    }
    /// Label value `target`; default `host:port`.
    public var name: String {
        get { settings.name }
        set { unique().name = newValue }
    }
    /// Policy sets named explicitly; nil = every loaded set that covers the host.
    public var policySets: [String]? {
        get { settings.policySets }
        set { unique().policySets = newValue }
    }
    /// mTLS client identity sent when the server asks for a client certificate; nil = none.
    public var clientIdentity: ClientIdentitySource? {
        get { settings.clientIdentity }
        set { unique().clientIdentity = newValue }
    }
    /// Labels from a target file (`target_files`), exported by `pinguard_target_info`.
    public var labels: [String: String] {
        get { settings.labels }
        set { unique().labels = newValue }
    }
    /// How this target expects to be renewed (`renewal`); nil: the config-wide settings.
    public var renewal: RenewalSettings? {
        get { settings.renewal }
        set { unique().renewal = newValue }
    }

    /// Creates a target.
    public init(host: String, port: Int = 443, connect: [String] = [], environment: String = "prod",
                name: String? = nil, policySets: [String]? = nil, resolve: ResolveMode = .all,
                maxAddresses: Int = Target.defaultMaxAddresses) {
        settings = TargetSettings(host: host, port: port, connect: connect, resolve: resolve, maxAddresses: maxAddresses,
                                  environment: environment, name: name ?? Target.defaultName(host: host, port: port),
                                  policySets: policySets)
    }

    /// The settings, copied first when another value shares them (copy-on-write).
    private mutating func unique() -> TargetSettings {
        if !isKnownUniquelyReferenced(&settings) { settings = settings.copy() }
        return settings
    }

    /// Every setting equal (the same shared settings are equal at once).
    public static func == (a: Target, b: Target) -> Bool {
        a.settings === b.settings || a.settings.same(as: b.settings)
    }

    /// Addresses probed per target unless `max_addresses` says otherwise.
    public static let defaultMaxAddresses = 16
    /// The largest `max_addresses` accepted.
    public static let maxAddressesLimit = 256

    /// Whether `other` probes the same endpoints the same way (results of one stand for the other).
    public func probesSameEndpoint(as other: Target) -> Bool {
        host == other.host && port == other.port && connect == other.connect && resolve == other.resolve
            && maxAddresses == other.maxAddresses && labels == other.labels && clientIdentity == other.clientIdentity
    }

    /// The server name or address `text` gives to dial (an IPv6 address may come in brackets; ports are
    /// given apart), normalised, or why it is not one: `HostName`'s rule, the one every host name follows.
    public static func serverName(_ text: String) -> Result<String, HostNameError> {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        return HostName.validate(bare)
    }

    /// `host:port`, with an IPv6 address in brackets.
    public static func defaultName(host: String, port: Int) -> String {
        contains(host, ":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether `text` has the character `ascii`, as `String.contains(Character)` says (a `/` followed by a
    /// combining mark is another character). In ASCII text every character is one byte but `\r\n`, so
    /// the bytes answer there, without the grapheme breaking that cost a tenth of loading 100,000 targets.
    static func contains(_ text: String, _ ascii: Unicode.Scalar) -> Bool {
        var found = false
        for byte in text.utf8 {
            if byte >= 0x80 { return text.contains(Character(ascii)) }
            if byte == UInt8(ascii: ascii) { found = true }
        }
        return found
    }
}
