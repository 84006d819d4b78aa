import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo

/// What the CT tests share, made once per test process: a PKI, four test logs of which the keyring (the
/// loaded log lists) knows the first three, and a moment the SCTs are dated before.
public final class CTFixture: Sendable {
    public let pki: CTTestPKI
    /// Four logs; `logs[3]` is named by no list.
    public let logs: [TestCTLog]
    /// The keys of `logs[0...2]`.
    public let keyring: CTLogKeyring
    /// When the SCTs are dated: an hour ago.
    public let issued = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down))

    private static let made: Result<CTFixture, any Error> = Result { try CTFixture() }

    /// The shared fixture; throws when it could not be made.
    public static func shared() throws -> CTFixture { try made.get() }

    private init() throws {
        pki = try CTTestPKI()
        logs = try TestCTLog.make(4)
        keyring = try CTLogKeyring(logs: logs.prefix(3).enumerated().map { $1.ctLog(operatorName: "Operator \($0 + 1)") })
    }

    /// SCTs by the given logs, all dated `issued`.
    public func scts(_ indices: [Int]) -> [TestSCT] { indices.map { TestSCT(log: logs[$0], timestamp: issued) } }

    /// A leaf for `host` under the intermediate with `scts` embedded.
    public func embeddedLeaf(_ host: String = "ct.pinguard.test", scts: [TestSCT], malformedList: Bool = false) throws -> CTIssuedCertificate {
        try CTCertificateIssuer.issue(commonName: host, dnsName: host, key: try DemoKey(), issuer: pki.intermediate,
                                      serial: Int.random(in: 1000...1_000_000), embedding: scts, malformedList: malformedList)
    }

    /// A leaf for `host` under the intermediate without SCTs.
    public func plainLeaf(_ host: String = "ct.pinguard.test") throws -> DemoCertificate {
        try DemoCertificate.issue(commonName: host, dnsName: host, key: try DemoKey(), issuer: pki.intermediate, isCA: false,
                                  validFrom: -3600, validUntil: 90 * 86_400, serial: Int.random(in: 1000...1_000_000))
    }
}
