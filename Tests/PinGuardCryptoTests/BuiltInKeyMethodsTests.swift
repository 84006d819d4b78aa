import COpenSSL
import Foundation
import PinGuardCore
@testable import PinGuardCrypto
import PinGuardCTTestSupport
import PinGuardDemo
import PinGuardProbe
import PinGuardTestSupport
import PinGuardTestKeyDecoding
import XCTest

/// RSA and EC keys are decoded and used through OpenSSL's built-in methods from the start of the process
/// (the fast certificate parsing of `KeyDecoding`), and nothing a probe does with keys stops working: a
/// private key read through the providers' decoders still signs, and every key exchange a server may
/// insist on still completes.
final class BuiltInKeyMethodsTests: XCTestCase {
    func testRSAAndECKeysUseTheBuiltInMethodsAndOtherTypesTheProviders() {
        XCTAssertEqual(pg_test_key_decoding_installed_at_start(), 1, "installed before the first test, as main does")
        XCTAssertTrue(KeyDecoding.isActive)
        if KeyDecoding.onCheckedRelease {
            XCTAssertEqual(KeyDecoding.install(), .builtInWithNamedCurves, "OpenSSL \(KeyDecoding.openSSLRelease) is a checked release")
            XCTAssertNil(KeyDecoding.install().notice, "nothing to say at start when the fast path is in force")
        } else {
            // Another release: the named-curves decoding stays off and start-up says so.
            XCTAssertEqual(KeyDecoding.install(), .builtIn, "OpenSSL \(KeyDecoding.openSSLRelease) is not a checked release")
            XCTAssertTrue(KeyDecoding.install().notice?.contains(KeyDecoding.openSSLRelease) ?? false)
        }
        XCTAssertTrue(KeyDecoding.isBuiltIn(EVP_PKEY_EC))
        XCTAssertTrue(KeyDecoding.isBuiltIn(EVP_PKEY_RSA))
        XCTAssertFalse(KeyDecoding.isBuiltIn(EVP_PKEY_ED25519), "Ed25519 keys keep the provider's size and methods")
        XCTAssertFalse(KeyDecoding.isBuiltIn(EVP_PKEY_RSA_PSS))
    }

    func testAPEMPrivateKeyIsAdoptedAndSigns() throws {
        for kind in [DemoKey.Kind.p256, .rsa2048, .ed25519] {
            let pem = Array(try DemoKey(kind).privateKeyPEM.utf8)
            let key = try ClientIdentity.pemKey(pem, name: "client.key")
            defer { EVP_PKEY_free(key) }
            let builtIn = kind != .ed25519
            XCTAssertEqual(EVP_PKEY_get0_provider(key) == nil, builtIn, "\(kind): held by the built-in methods only for RSA and EC")
            XCTAssertEqual(try signatureLength(key, digest: builtIn ? EVP_sha256() : nil) > 0, true, "\(kind) signs")
        }
    }

    func testAServerThatOnlyTakesP256GetsAHelloRetryAndIsProbed() throws {
        let f = try CTFixture.shared()
        for (version, groups, expected) in [("-tls1_3", "P-256", "prime256v1"), ("-tls1_3", "P-384", "secp384r1"),
                                            ("-tls1_2", "P-256", "prime256v1")] {
            let server = try f.pki.server(leaf: try f.plainLeaf(), extraArguments: [version, "-groups", groups])
            defer { server.stop() }
            let prober = try TLSProber(caFile: f.pki.caFile)
            let facts = prober.probe(ProbeRequest(host: "ct.pinguard.test", port: server.port, connect: ["127.0.0.1"], timeout: 5))
            XCTAssertNil(facts.error, "\(version) \(groups)")
            XCTAssertTrue(facts.trusted, "\(version) \(groups)")
            XCTAssertEqual(facts.tlsGroup, expected, "\(version) \(groups)")
        }
    }

    func testECPublicKeysOfEveryCurveAndEncodingComeBackAsOpenSSLWroteThemAndVerify() throws {
        XCTAssertEqual(KeyDecoding.namedCurvesReady, KeyDecoding.onCheckedRelease,
                       "P-256, P-384 and P-521 decode on curves built once exactly on a checked release")
        let dir = try TemporaryDirectory.make("pinguard-curves")
        let message = dir.appendingPathComponent("message").path
        try "pinguard".write(toFile: message, atomically: true, encoding: .utf8)
        for (curve, encoding, bits) in [("prime256v1", "named_curve", 256), ("secp384r1", "named_curve", 384),
                                        ("secp521r1", "named_curve", 521), ("secp256k1", "named_curve", 256),
                                        ("prime256v1", "explicit", 256)] {
            let label = "\(curve) \(encoding)"
            let key = dir.appendingPathComponent("\(curve)-\(encoding).key").path
            let spki = dir.appendingPathComponent("\(curve)-\(encoding).der").path
            let signature = dir.appendingPathComponent("\(curve)-\(encoding).sig").path
            let made = try CommandRunner.shell("""
                openssl ecparam -name \(curve) -param_enc \(encoding) -genkey -noout -out \(key) && \
                openssl ec -in \(key) -param_enc \(encoding) -pubout -outform DER -out \(spki) 2>/dev/null && \
                openssl dgst -sha256 -sign \(key) -out \(signature) \(message)
                """)
            XCTAssertEqual(made.status, 0, "\(label): \(made.stderr)")
            let der = Array(try Data(contentsOf: URL(fileURLWithPath: spki)))
            let decoded = der.withUnsafeBufferPointer { b -> OpaquePointer? in
                var p: UnsafePointer<UInt8>? = b.baseAddress
                return d2i_PUBKEY(nil, &p, b.count)
            }
            let pkey = try XCTUnwrap(decoded, label)
            defer { EVP_PKEY_free(pkey) }
            XCTAssertEqual(EVP_PKEY_get_bits(pkey), Int32(bits), label)
            XCTAssertEqual(CertificateReader.publicKeyDER(pkey), der, "\(label): re-encoded as it was written")
            let sig = Array(try Data(contentsOf: URL(fileURLWithPath: signature)))
            XCTAssertTrue(try verifies(pkey, signature: sig, data: Array("pinguard".utf8)), "\(label): a signature verifies")
            XCTAssertFalse(try verifies(pkey, signature: sig, data: Array("pinguarD".utf8)), "\(label): another message does not")
        }
    }

    private func verifies(_ key: OpaquePointer, signature: [UInt8], data: [UInt8]) throws -> Bool {
        guard let md = EVP_MD_CTX_new() else { throw HarnessError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(md) }
        guard EVP_DigestVerifyInit(md, nil, EVP_sha256(), nil, key) == 1 else { throw HarnessError("\(OpenSSLErrorQueue.drain())") }
        defer { _ = OpenSSLErrorQueue.drain() }
        return EVP_DigestVerify(md, signature, signature.count, data, data.count) == 1
    }

    private func signatureLength(_ key: OpaquePointer, digest: OpaquePointer?) throws -> Int {
        guard let md = EVP_MD_CTX_new() else { throw HarnessError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(md) }
        let data = Array("pinguard".utf8)
        var length = 0
        guard EVP_DigestSignInit(md, nil, digest, nil, key) == 1, EVP_DigestSign(md, nil, &length, data, data.count) == 1 else {
            throw HarnessError("cannot sign: \(OpenSSLErrorQueue.drain())")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(md, &signature, &length, data, data.count) == 1 else { throw HarnessError("cannot sign: \(OpenSSLErrorQueue.drain())") }
        return length
    }
}
