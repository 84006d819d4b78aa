import Foundation
import PinGuardCore
import PinGuardDemo

/// A PKI whose certificates name CRL distribution points under `base` (e.g. `http://127.0.0.1:PORT`):
/// a root (the anchor, no distribution point), an intermediate whose CRL is the root's (`/root.crl`), and
/// leaves whose CRL is the intermediate's (`/int.crl`); plus a stranger key that signs nothing legitimately.
/// Made in-process, once per test that asks.
public struct RevocationPKI: Sendable {
    /// Where the distribution points live.
    public let base: String
    /// The anchor.
    public let root: DemoCertificate
    /// Issued by the root, names `base/root.crl`.
    public let intermediate: DemoCertificate
    /// Leaves for `NAME.pinguard.test` issued by the intermediate, each naming `base/int.crl`, by name.
    public let leaves: [String: DemoCertificate]
    /// A key that is neither CA's.
    public let stranger: DemoKey

    /// The intermediate's serial.
    public static let intermediateSerial = 2

    /// Issues the PKI; `leafNames` get serials 100, 101, ... in order.
    public init(base: String, leafNames: [String] = ["revoked", "healthy"]) throws {
        self.base = base
        let day = 86_400.0
        root = try DemoCertificate.issue(commonName: "CRL Test Root", dnsName: nil, key: try DemoKey(), issuer: nil, isCA: true,
                                         validFrom: -day, validUntil: 3650 * day, serial: 1)
        intermediate = try DemoCertificate.issue(commonName: "CRL Test Intermediate", dnsName: nil, key: try DemoKey(), issuer: root,
                                                 isCA: true, validFrom: -day, validUntil: 1825 * day, serial: Self.intermediateSerial,
                                                 crlDistributionPoint: "\(base)/root.crl")
        var leaves: [String: DemoCertificate] = [:]
        for (i, name) in leafNames.enumerated() {
            leaves[name] = try DemoCertificate.issue(commonName: "\(name).pinguard.test", dnsName: "\(name).pinguard.test", key: try DemoKey(),
                                                     issuer: intermediate, isCA: false, validFrom: -day, validUntil: 90 * day,
                                                     serial: Self.serial(ofLeafAt: i), extendedKeyUsage: "serverAuth",
                                                     crlDistributionPoint: "\(base)/int.crl")
        }
        self.leaves = leaves
        stranger = try DemoKey()
    }

    /// The serial of the `index`-th leaf name.
    public static func serial(ofLeafAt index: Int) -> Int { 100 + index }

    /// The intermediate's distribution point.
    public var intermediateCRLURL: String { "\(base)/int.crl" }
    /// The root's distribution point (the intermediate's CRL).
    public var rootCRLURL: String { "\(base)/root.crl" }

    /// The leaf `name`.
    public func leaf(_ name: String) -> DemoCertificate { leaves[name]! }

    /// The served chain of leaf `name` as the probe reports it: leaf, intermediate, root (the anchor).
    public func chain(_ name: String) throws -> [ChainCertificate] {
        var out: [ChainCertificate] = []
        for (depth, c) in [leaf(name), intermediate, root].enumerated() {
            var facts = try c.facts
            facts.depth = depth
            out.append(facts)
        }
        return out
    }

    /// PEM of leaf `name` then the intermediate (what a server sends).
    public func chainPEM(_ name: String) -> String { leaf(name).pem + intermediate.pem }
}
