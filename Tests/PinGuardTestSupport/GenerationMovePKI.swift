import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo

/// A CA's move to a new root generation, made at test time after Let's Encrypt's 2026 move: an old root (X1),
/// a second root (X2) cross-signed by X1, a new root (YE) cross-signed by X2, an intermediate under YE and a
/// leaf for `host`. The server sends leaf, intermediate, YE-by-X2 and X2-by-X1, as a CA's long chain does.
public struct GenerationMovePKI: Sendable {
    /// The name the leaf is issued for.
    public static let host = "app.pinguard.test"
    /// The roots.
    public let x1, x2, ye: DemoCertificate
    /// The cross-signs, the intermediate under YE and the leaf.
    public let x2ByX1, yeByX2, intermediate, leaf: DemoCertificate
    /// The roots' keys.
    public let keys: (x1: DemoKey, x2: DemoKey, ye: DemoKey)

    /// The PKI; `crossSignExpired` makes X2-by-X1 expired a day ago; `caIssuers` is the leaf's caIssuers URL (none
    /// when nil).
    public init(crossSignExpired: Bool = false, caIssuers: String? = nil) throws {
        let day = 86_400.0
        keys = (try DemoKey(.p256), try DemoKey(.p256), try DemoKey(.p256))
        x1 = try .issue(commonName: "Test Root X1", dnsName: nil, key: keys.x1, issuer: nil, isCA: true,
                        validFrom: -3_000 * day, validUntil: 3_000 * day, serial: 1)
        x2 = try .issue(commonName: "Test Root X2", dnsName: nil, key: keys.x2, issuer: nil, isCA: true,
                        validFrom: -2_000 * day, validUntil: 4_000 * day, serial: 2)
        ye = try .issue(commonName: "Test Root YE", dnsName: nil, key: keys.ye, issuer: nil, isCA: true,
                        validFrom: -400 * day, validUntil: 5_000 * day, serial: 3)
        x2ByX1 = try .issue(commonName: "Test Root X2", dnsName: nil, key: keys.x2, issuer: x1, isCA: true,
                            validFrom: -2_000 * day, validUntil: crossSignExpired ? -day : 1_000 * day, serial: 4)
        yeByX2 = try .issue(commonName: "Test Root YE", dnsName: nil, key: keys.ye, issuer: x2, isCA: true,
                            validFrom: -300 * day, validUntil: 1_500 * day, serial: 5)
        intermediate = try .issue(commonName: "Test YE1", dnsName: nil, key: try DemoKey(.p256), issuer: ye, isCA: true,
                                  validFrom: -200 * day, validUntil: 900 * day, serial: 6)
        leaf = try .issue(commonName: Self.host, dnsName: Self.host, key: try DemoKey(.p256), issuer: intermediate, isCA: false,
                          validFrom: -10 * day, validUntil: 80 * day, serial: 7, extendedKeyUsage: "serverAuth", caIssuers: caIssuers)
    }

    /// What the server sends.
    public var served: [DemoCertificate] { [leaf, intermediate, yeByX2, x2ByX1] }

    /// Another issuing intermediate `name` under `issuer` (valid from 100 days ago for 900 days), and a leaf for
    /// `host` under it (from 10 days ago for 80 days): a CA moving its issuance to another intermediate.
    public static func issuing(_ name: String, under issuer: DemoCertificate, serial: Int) throws -> (ca: DemoCertificate, leaf: DemoCertificate) {
        let day = 86_400.0
        let ca = try DemoCertificate.issue(commonName: name, dnsName: nil, key: try DemoKey(.p256), issuer: issuer, isCA: true,
                                           validFrom: -100 * day, validUntil: 900 * day, serial: serial)
        let leaf = try DemoCertificate.issue(commonName: host, dnsName: host, key: try DemoKey(.p256), issuer: ca, isCA: false,
                                             validFrom: -10 * day, validUntil: 80 * day, serial: serial + 1, extendedKeyUsage: "serverAuth")
        return (ca, leaf)
    }

    /// A store of `client` with versions `known`, holding each root for the versions given (nil: not held).
    public func store(_ client: CTClient, known: String?, x1 x1Versions: String?, x2 x2Versions: String?, ye yeVersions: String?,
               distrustAfter: [String: Date] = [:]) throws -> ClientStore {
        var roots: [ClientStoreData.Root] = []
        for (cert, versions) in [(x1, x1Versions), (x2, x2Versions), (ye, yeVersions)] {
            guard let versions else { continue }
            let subject = try cert.facts.subject
            roots.append(.init(der: cert.der, certSHA256: try cert.facts.certSHA256, subject: subject,
                               versions: ClientVersions(versions), distrustAfter: distrustAfter[subject]))
        }
        let name = ["android": "Android API", "ios": "iOS", "chrome": "Chrome"][client.rawValue] ?? ""
        return try ClientStore(ClientStoreData(client: client, versionName: name, source: "test", sourceDate: Date(), refreshDays: 180,
                                               versionsKnown: known.flatMap(ClientVersions.init), versionsInUse: nil, roots: roots))
    }

    /// The paths `judge` gives for `certificates` (default: what the server sends) now, for `host`.
    public func paths(_ judge: ClientPathJudge, _ certificates: [DemoCertificate]? = nil, host: String = Self.host) throws -> ClientPaths {
        try Self.paths(judge, certificates ?? served, host: host)
    }

    /// The paths `judge` gives for `chain` as served now, for `host` (nil: no name check, as a client whose
    /// hostname verifier accepts any name).
    public static func paths(_ judge: ClientPathJudge, _ chain: [DemoCertificate], host: String?) throws -> ClientPaths {
        let facts = try chain.enumerated().map { i, c in
            try CertificateReader.facts(of: c.pointer, depth: i, source: .served)
        }
        return try judge.paths(of: chain.map(\.pointer), servedFacts: facts, host: host, at: Date()) { x, d, s throws(ProbeError) in
            try CertificateReader.facts(of: x, depth: d, source: s)
        }
    }

    /// A client trust stores file (the bundled file's format) holding `roots` (`x1`, `x2`, `ye` to versions) for
    /// `client` with versions `known`, and `changes` (`(root, kind, versions, date)`).
    public func storesJSON(client: String, known: String, roots: [String: String],
                           changes: [(root: String, kind: String, versions: String, date: Date)] = []) throws -> String {
        var certificates: [String: String] = [:]
        func entry(_ name: String) throws -> (String, String) {
            let cert = [("x1", x1), ("x2", x2), ("ye", ye)].first { $0.0 == name }!.1
            let hash = try cert.facts.certSHA256
            certificates[hash] = Data(cert.der).base64EncodedString()
            return (hash, try cert.facts.subject)
        }
        var rootList: [[String: Any]] = []
        for (name, versions) in roots.sorted(by: { $0.key < $1.key }) {
            let (hash, subject) = try entry(name)
            rootList.append(["certificate": hash, "subject": subject, "versions": versions])
        }
        var changeList: [[String: Any]] = []
        for c in changes {
            let (hash, subject) = try entry(c.root)
            changeList.append(["certificate": hash, "subject": subject, "change": c.kind, "versions": c.versions,
                               "date": String(ISO8601DateFormatter().string(from: c.date).prefix(10)), "source": "test"])
        }
        let store: [String: Any] = ["client": client, "version_name": client == "android" ? "Android API" : "", "source": "test",
                                    "source_date": String(ISO8601DateFormatter().string(from: Date()).prefix(10)),
                                    "refresh_days": 180, "versions_known": known, "roots": rootList, "changes": changeList]
        let object: [String: Any] = ["format": 1, "stores": [store], "certificates": certificates]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A policy file of the Android app `app` running on `clientVersions`, pinning the keys of X1 and X2.
    public func androidPolicy(clientVersions: String) -> String {
        """
        name: app
        client: android
        client_versions: "\(clientVersions)"
        environments:
          prod:
            default_policy:
              pins:
                - {type: spki, hash: "\(keys.x1.spkiSHA256)"}
                - {type: spki, hash: "\(keys.x2.spkiSHA256)"}
        """
    }

    /// The subjects' common names along a path, for readable assertions.
    public static func names(_ path: ClientPath) -> [String] {
        path.chain.map { c in
            c.subject.split(separator: ",").first { $0.hasPrefix("CN=") }.map { String($0.dropFirst(3)) } ?? c.subject
        }
    }
}
