import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardProbe
import XCTest

/// One verifier's rules for every command: each chain here is served by a real TLS server on loopback and probed,
/// and verified offline from files as `plan`, `lint --chain` and `files:` verify it; both must reach the same
/// verdict and the same reason. The chains are those OpenSSL's defaults let through and the mobile clients and
/// Chrome refuse: a name in the common name only, a leaf for client authentication only. (A key under the security
/// level cannot be served by a server of this machine's OpenSSL; both sides take the level from `ServerVerification`.)
final class ProbeAndPlanAgreementTests: XCTestCase {
    struct Case {
        var name: String
        var leaf: DemoCertificate
        var trusted: Bool
    }

    func testProbeAndTheOfflineVerifierReachTheSameVerdictOnEveryChain() throws {
        let day = 86_400.0
        let root = try DemoCertificate.issue(commonName: "Agreement Root", dnsName: nil, key: try DemoKey(), issuer: nil, isCA: true,
                                             validFrom: -day, validUntil: 3650 * day, serial: 1)
        let host = "agree.pinguard.test"
        func leaf(_ serial: Int, usage: String? = "serverAuth", san: String?) throws -> DemoCertificate {
            try DemoCertificate.issue(commonName: host, dnsName: nil, key: try DemoKey(), issuer: root, isCA: false,
                                      validFrom: -day, validUntil: 90 * day, serial: serial, extendedKeyUsage: usage, subjectAltName: san)
        }
        let cases = [
            Case(name: "a name in the subjectAltName", leaf: try leaf(10, san: "DNS:\(host)"), trusted: true),
            Case(name: "no extended key usage", leaf: try leaf(11, usage: nil, san: "DNS:\(host)"), trusted: true),
            Case(name: "the name in the common name only", leaf: try leaf(12, san: nil), trusted: false),
            Case(name: "another name in the subjectAltName", leaf: try leaf(15, san: "DNS:other.pinguard.test"), trusted: false),
            Case(name: "client authentication only", leaf: try leaf(13, usage: "clientAuth", san: "DNS:\(host)"), trusted: false),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let caFile = folder.appendingPathComponent("root.pem").path
        try root.pem.write(toFile: caFile, atomically: true, encoding: .utf8)
        let prober = try TLSProber(caFile: caFile)
        var agreed = 0
        for c in cases {
            let server = try LoopbackTLSServer(leaf: c.leaf, chain: nil)
            defer { server.stop() }
            let probed = prober.probe(ProbeRequest(host: host, port: server.port, connect: ["127.0.0.1"], timeout: 10))
            let planned = try CandidateChainVerifier.verify([(Array(c.leaf.pem.utf8), "leaf.pem")], host: host, caFile: caFile, at: Date())
            XCTAssertNil(probed.error, "\(c.name): the handshake completes")
            XCTAssertEqual(probed.trusted, c.trusted, "\(c.name): probe says \(probed.trustError ?? "trusted")")
            XCTAssertEqual(planned.trusted, c.trusted, "\(c.name): plan says \(planned.trustError ?? "trusted")")
            XCTAssertEqual(probed.trustError, planned.trustError, c.name)
            if probed.trusted == planned.trusted && probed.trustError == planned.trustError { agreed += 1 }
        }
        XCTAssertEqual(agreed, cases.count)
    }
}
