import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardTestSupport
import XCTest

/// A server's `signed_certificate_timestamp` extension, decoded as a handshake decodes it: a list that does not
/// decode or is longer than the extension allows gives no SCTs, at most 64 are read, and an SCT of a log no list
/// holds is an unknown log, never a failure.
final class SCTExtensionListTests: XCTestCase {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    /// A version 1 SCT of log `id` at `milliseconds`, with an ECDSA-SHA256 signature field of `signature`.
    static func sct(log id: [UInt8], milliseconds: UInt64, signature: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]) -> [UInt8] {
        var body: [UInt8] = [0] + id
        body += (0..<8).map { UInt8(truncatingIfNeeded: milliseconds >> (56 - 8 * $0)) }
        body += [0, 0, 4, 3, UInt8(signature.count >> 8), UInt8(signature.count & 0xFF)] + signature
        return [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// The extension's bytes: a two-byte length, then the SCTs.
    static func list(_ scts: [[UInt8]]) -> [UInt8] {
        let body = scts.flatMap { $0 }
        return [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    func fixture() throws -> (leaf: [UInt8], keyring: CTLogKeyring) {
        let cert = try TestPKI.shared().certificate("valid")
        let lists = try CTLogListsLoader.load(replacements: [:], relativeTo: nil)
        return (Array(try Data(contentsOf: URL(fileURLWithPath: cert))), try CTLogKeyring(logs: lists.values.flatMap(\.logs)))
    }

    func testAListIsReadAsAHandshakeReadsItAndBounded() throws {
        let (leaf, keyring) = try fixture()
        let one = try SCTVerifier.extensionSCTs(Self.list([Self.sct(log: Array(repeating: 7, count: 32), milliseconds: 1_790_000_000_000)]),
                                                leaf: leaf, keyring: keyring, at: Self.at)
        XCTAssertEqual(one.map(\.status), [.unknownLog], "a log no list holds")
        XCTAssertEqual(one.first?.source, .tls)
        let many = (0..<100).map { Self.sct(log: Array(repeating: UInt8($0), count: 32), milliseconds: 1_790_000_000_000) }
        XCTAssertEqual(try SCTVerifier.extensionSCTs(Self.list(many), leaf: leaf, keyring: keyring, at: Self.at).count, SCTVerifier.maxSCTs)
        XCTAssertEqual(try SCTVerifier.extensionSCTs([0x00, 0x05, 0x01, 0x02], leaf: leaf, keyring: keyring, at: Self.at), [],
                       "a list that does not decode gives no SCTs")
        let huge = Self.list([Self.sct(log: Array(repeating: 7, count: 32), milliseconds: 1)]) + Array(repeating: 0, count: 65_600)
        XCTAssertEqual(try SCTVerifier.extensionSCTs(huge, leaf: leaf, keyring: keyring, at: Self.at), [],
                       "longer than the extension can be: nothing is decoded")
    }
}
