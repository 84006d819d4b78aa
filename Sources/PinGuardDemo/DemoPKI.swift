import Foundation

/// The demo's keys and certificates: a root, an intermediate, a leaf per endpoint on its own key, the
/// keys the apps pin, and a renewal staged for the expiring host.
struct DemoPKI {
    /// The domain every demo host is under.
    static let domain = "demo.pinguard.test"
    static let day = 86_400.0

    let root: DemoCertificate
    let intermediate: DemoCertificate
    /// Served by `api` and pinned as its primary.
    let apiKey: DemoKey
    /// Served by no endpoint: the backup pin of `api` and `rotated`, and of the Android app.
    let spare: DemoKey
    /// Served by `expiring` and pinned as its only pin.
    let expiringKey: DemoKey
    /// Pinned as the primary of `rotated`, which has rotated away from it to `newRotatedKey`.
    let oldRotatedKey: DemoKey, newRotatedKey: DemoKey
    /// `backup` pins `backupPrimary` first and serves `backupKey`, its backup pin.
    let backupPrimary: DemoKey, backupKey: DemoKey
    /// One leaf per endpoint, by endpoint name.
    let endpoints: [(name: String, cert: DemoCertificate)]
    /// Issued after the served certificate of `expiring`, on a new key that no pin of the iOS app covers.
    let renewal: DemoCertificate

    init() throws {
        let day = Self.day
        (apiKey, spare, expiringKey) = (try DemoKey(), try DemoKey(), try DemoKey())
        (oldRotatedKey, newRotatedKey, backupPrimary, backupKey) = (try DemoKey(), try DemoKey(), try DemoKey(), try DemoKey())
        root = try DemoCertificate.issue(commonName: "pinguard Demo Root", dnsName: nil, key: try DemoKey(), issuer: nil,
                                         isCA: true, validFrom: -day, validUntil: 3650 * day, serial: 1)
        intermediate = try DemoCertificate.issue(commonName: "pinguard Demo Intermediate", dnsName: nil, key: try DemoKey(),
                                                 issuer: root, isCA: true, validFrom: -day, validUntil: 1825 * day, serial: 2)
        endpoints = [
            ("api", try Self.leaf("api", key: apiKey, days: 90, serial: 10, issuer: intermediate)),
            ("expiring", try Self.leaf("expiring", key: expiringKey, days: 5, serial: 11, issuer: intermediate)),
            ("rotated", try Self.leaf("rotated", key: newRotatedKey, days: 90, serial: 12, issuer: intermediate)),
            ("backup", try Self.leaf("backup", key: backupKey, days: 90, serial: 13, issuer: intermediate)),
        ]
        renewal = try DemoCertificate.issue(commonName: "expiring.\(Self.domain)", dnsName: "expiring.\(Self.domain)", key: try DemoKey(),
                                            issuer: intermediate, isCA: false, validFrom: -day, validUntil: 90 * day, serial: 14)
    }

    /// The served certificate of endpoint `name`, valid since ten days ago for `days` more.
    static func leaf(_ name: String, key: DemoKey, days: Double, serial: Int, issuer: DemoCertificate) throws -> DemoCertificate {
        let host = "\(name).\(domain)"
        return try DemoCertificate.issue(commonName: host, dnsName: host, key: key, issuer: issuer, isCA: false,
                                         validFrom: -10 * day, validUntil: days * day, serial: serial)
    }
}
