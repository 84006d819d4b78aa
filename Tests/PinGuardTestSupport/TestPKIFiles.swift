import Foundation
import PinGuardDemo

/// Writes the files of `TestPKI` in-process (OpenSSL through the demo's certificate builder): two roots
/// with an intermediate each, and the leaves of `TestPKI.leafNames` with their keys, chains and SAN names.
enum TestPKIFiles {
    /// How a leaf is made: its SAN name, key, validity in days relative to now and issuer.
    struct Leaf {
        let name: String
        let host: String
        var kind: DemoKey.Kind = .p256
        var from: Double = -10
        var until: Double = 90
        var issuer = "int"
        var key: String?
    }

    static let leaves: [Leaf] = [
        Leaf(name: "valid", host: "valid.pinguard.test"),
        Leaf(name: "rsa", host: "rsa.pinguard.test", kind: .rsa2048),
        Leaf(name: "rsapss", host: "rsapss.pinguard.test", kind: .rsaPSS2048),
        Leaf(name: "p384", host: "p384.pinguard.test", kind: .p384),
        Leaf(name: "ed25519", host: "ed25519.pinguard.test", kind: .ed25519),
        Leaf(name: "expiring", host: "expiring.pinguard.test", from: -80, until: 5),
        Leaf(name: "expired", host: "expired.pinguard.test", from: -100, until: -2),
        Leaf(name: "wronghost", host: "other.example"),
        Leaf(name: "otherca", host: "otherca.pinguard.test", issuer: "int2"),
        // The same host served with a key rotated away from its pins, and one running on its backup key.
        Leaf(name: "rotated", host: "rotated.pinguard.test", from: -1),
        Leaf(name: "backup", host: "backup.pinguard.test", from: -1, key: "backup-spare"),
        // One name served by several nodes: the current chain, and a node left behind with an older key.
        Leaf(name: "pool", host: "pool.pinguard.test", from: -1),
        Leaf(name: "pool-stale", host: "pool.pinguard.test", from: -60, until: 20),
    ]

    static let day = 86_400.0

    /// Writes every file into `folder`.
    static func write(into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("ca"), withIntermediateDirectories: true)
        func write(_ text: String, _ name: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var serial = 1000
        func next() -> Int { serial += 1; return serial }
        func ca(_ cn: String, issuer: DemoCertificate?, from: Double, until: Double) throws -> DemoCertificate {
            try DemoCertificate.issue(commonName: cn, dnsName: nil, key: try DemoKey(), issuer: issuer, isCA: true,
                                      validFrom: from * day, validUntil: until * day, serial: next(), organization: "pinguard test")
        }
        let root = try ca("pinguard Test Root", issuer: nil, from: 0, until: 3650)
        let root2 = try ca("pinguard Other Root", issuer: nil, from: 0, until: 3650)
        let issuers = ["int": try ca("pinguard Test Intermediate", issuer: root, from: -1, until: 1825),
                       "int2": try ca("pinguard Other Intermediate", issuer: root2, from: -1, until: 1825)]
        for (name, c) in [("root", root), ("root2", root2)] + issuers.map({ ($0.key, $0.value) }) {
            try write(c.pem, "ca/\(name).pem")
            try write(c.key.privateKeyPEM, "ca/\(name).key")
        }
        try write(root.pem, "ca-bundle.pem")
        try write(root.pem + root2.pem, "ca-bundle-both.pem")
        var spareKeys: [String: DemoKey] = ["backup-spare": try DemoKey(), "reserve": try DemoKey()]
        for (name, key) in spareKeys { try write(key.privateKeyPEM, "\(name).key") }
        for leaf in leaves {
            guard let issuer = issuers[leaf.issuer] else { continue }
            let key = try leaf.key.flatMap { spareKeys[$0] } ?? DemoKey(leaf.kind)
            let c = try DemoCertificate.issue(commonName: leaf.host, dnsName: leaf.host, key: key, issuer: issuer, isCA: false,
                                              validFrom: leaf.from * day, validUntil: leaf.until * day, serial: next(),
                                              organization: nil, extendedKeyUsage: "serverAuth")
            try write(c.pem, "\(leaf.name).pem")
            try write(key.privateKeyPEM, "\(leaf.name).key")
            try write(c.pem + issuer.pem, "\(leaf.name)-chain.pem")
            try write(leaf.host + "\n", "\(leaf.name).host")
        }
        spareKeys = [:]
        let selfKey = try DemoKey()
        let selfSigned = try DemoCertificate.issue(commonName: "selfsigned.pinguard.test", dnsName: "selfsigned.pinguard.test", key: selfKey,
                                                   issuer: nil, isCA: false, validFrom: 0, validUntil: 90 * day, serial: next(),
                                                   organization: nil)
        try write(selfSigned.pem, "selfsigned.pem")
        try write(selfSigned.pem, "selfsigned-chain.pem")
        try write(selfKey.privateKeyPEM, "selfsigned.key")
        try write("selfsigned.pinguard.test\n", "selfsigned.host")
    }
}
