import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardCTTestSupport
import PinGuardDemo
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// SCT lists a hostile server sends: a list that does not parse is a CT fact (no SCTs from it), never a
/// failed handshake, whatever the TLS version; an SCT larger than any log signs is `invalid` unchecked and
/// never remembered, so fresh large SCTs on every handshake cannot grow the verdict cache.
final class CTHostileSCTListTests: XCTestCase {
    private func probe(_ server: TLSServer, keyring: CTLogKeyring) throws -> ProbeFacts {
        let f = try CTFixture.shared()
        let prober = try TLSProber(caFile: f.pki.caFile, ctLogs: keyring)
        return prober.probe(ProbeRequest(host: "ct.pinguard.test", port: server.port, connect: ["127.0.0.1"], timeout: 5))
    }

    /// SCT lists whose lengths overrun, as the malformed-list reproducer sends them.
    static let overrunningLists: [[UInt8]] = [
        TestSCTList.malformed,
        [0x00, 0x08, 0x00, 0x20] + [UInt8](repeating: 0, count: 6),
        [0x01, 0x00] + [UInt8](repeating: 0xFF, count: 300),
    ]

    func testAMalformedListFailsNoHandshakeUnderTLS12OrTLS13() throws {
        let f = try CTFixture.shared()
        let leaf = try f.embeddedLeaf(scts: f.scts([0]))
        for list in Self.overrunningLists {
            for version in ["-tls1_2", "-tls1_3"] {
                let server = try f.pki.server(leaf: leaf.certificate, tlsSCTs: list, extraArguments: [version])
                defer { server.stop() }
                let facts = try probe(server, keyring: f.keyring)
                XCTAssertNil(facts.error, "\(version) \(list.prefix(4))")
                XCTAssertNil(facts.handshakeError, "\(version)")
                XCTAssertEqual(facts.ct.scts.map(\.source), [.embedded], "the broken list adds nothing; the embedded SCT stays (\(version))")
                XCTAssertEqual(facts.ct.scts.map(\.status), [.valid], version)
            }
        }
    }

    func testAnSCTLargerThanAnyLogSignsIsInvalidAndNeverRemembered() throws {
        let f = try CTFixture.shared()
        let keyring = try CTLogKeyring(logs: [f.logs[0].ctLog(operatorName: "A")])
        let leaf = try f.plainLeaf()
        for round in 0..<3 {
            let server = try f.pki.server(leaf: leaf, tlsSCTs: TestSCTList.encode([Self.largeSCT(logID: f.logs[0].logID, seed: round)]),
                                          extraArguments: ["-tls1_2"])
            defer { server.stop() }
            let facts = try probe(server, keyring: keyring)
            XCTAssertNil(facts.error)
            XCTAssertEqual(facts.ct.scts.map(\.status), [.invalid])
            XCTAssertEqual(facts.ct.scts.map(\.logID), [f.logs[0].logIDBase64])
        }
        XCTAssertEqual(keyring.rememberedVerdicts, 0, "an SCT over \(SCTVerifier.maxSCTBytes) bytes is never remembered")
        XCTAssertEqual(keyring.rememberedVerdictBytes, 0)
    }

    func testEveryCacheBudgetHoldsByEntriesAndByBytes() {
        var budget = CacheBudget(maxEntries: 3, maxBytes: 100)
        XCTAssertTrue(budget.admit(cost: 40))
        XCTAssertTrue(budget.admit(cost: 40))
        XCTAssertFalse(budget.admit(cost: 40), "120 bytes would pass 100")
        XCTAssertEqual(budget.bytes, 80)
        XCTAssertTrue(budget.admit(cost: 20))
        XCTAssertFalse(budget.admit(cost: 0), "3 entries at most")
        budget.release(cost: 40)
        XCTAssertEqual(budget.entries, 2)
        XCTAssertEqual(budget.bytes, 60)
        budget.reset()
        XCTAssertEqual(budget.entries, 0)
        XCTAssertEqual(budget.bytes, 0)
    }

    /// A version 1 SCT naming `logID`, dated in the past, with 30,000 bytes of extensions and a signature
    /// no log made: ~30 KB, as the memory reproducer sends fresh on every handshake.
    static func largeSCT(logID: [UInt8], seed: Int) -> [UInt8] {
        let timestamp = UInt64(Date().addingTimeInterval(-3600).timeIntervalSince1970 * 1000)
        var sct: [UInt8] = [0] + logID + (0..<8).reversed().map { UInt8(truncatingIfNeeded: timestamp >> (8 * UInt64($0))) }
        let extensions = (0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
        sct += [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xFF)] + extensions
        let signature = [UInt8](repeating: UInt8(seed + 1), count: 70)
        sct += [4, 3, 0, UInt8(signature.count)] + signature
        return sct
    }
}
