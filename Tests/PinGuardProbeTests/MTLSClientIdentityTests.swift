import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// mTLS client identity per target (docs/reference.md, Configuration, target keys): a real nginx with
/// `ssl_verify_client on` probed without and with an identity (PEM and PKCS#12 made by the openssl CLI). The same
/// identities through the built binary's `check-config` and `probe` are CLIClientIdentityTests.
final class MTLSClientIdentityTests: XCTestCase {
    struct World: Sendable {
        let files: ClientIdentityFiles
        let farm: TLSServerFarm
        let prober: TLSProber
    }

    private static let started: Result<World, HarnessError> = {
        do {
            let pki = try WebPKI.make()
            let files = try ClientIdentityFiles.make(pki: pki)
            let farm = try TLSServerFarm(sites: [TLSSite(serverName: "localhost", chainFile: pki.serverCertificate,
                                                         keyFile: pki.serverKey, clientCAFile: pki.clientCA)], ipv6: false)
            return .success(World(files: files, farm: farm, prober: try TLSProber(caFile: pki.serverCA)))
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    func world() throws -> World { try Self.started.get() }

    func probe(_ w: World, identity: ClientIdentity?, port: Int? = nil) -> ProbeFacts {
        w.prober.probe(ProbeRequest(host: "localhost", port: port ?? w.farm.port, connect: ["127.0.0.1"], timeout: 5,
                                    clientIdentity: identity))
    }

    func events(_ facts: ProbeFacts) -> [JournalEvent] {
        var d = EventDetector(warningDays: 30)
        let target = Target(host: "localhost", port: facts.port, name: "mtls")
        return d.observe(TargetResult.evaluate(facts, target: target, sets: [], now: facts.finishedAt))
            .map(\.event).filter { $0.rawValue.hasPrefix("mtls_") }
    }

    /// The nginx of these tests really refuses a request without a client certificate and serves one with it.
    func testTheServerRefusesARequestWithoutAClientCertificate() throws {
        let w = try world()
        guard let curl = CommandRunner.which("curl") else { throw XCTSkip("curl is not installed") }
        let url = "https://localhost:\(w.farm.port)/"
        let base = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", w.files.pki.serverCA, "--resolve", "localhost:\(w.farm.port):127.0.0.1"]
        XCTAssertEqual(try CommandRunner.run(curl, base + [url]).stdout, "400")
        XCTAssertEqual(try CommandRunner.run(curl, base + ["--cert", w.files.pki.clientCertificate, "--key", w.files.pki.clientKey, url]).stdout, "200")
    }

    func testWithoutAnIdentityTheRequestIsSeenAndReportedAsMissing() throws {
        let w = try world()
        let facts = probe(w, identity: nil)
        XCTAssertNil(facts.error)
        XCTAssertTrue(facts.success)
        XCTAssertTrue(facts.clientAuth.requested, "nginx sent a CertificateRequest")
        XCTAssertFalse(facts.clientAuth.presented)
        XCTAssertNil(facts.clientAuth.certificateNotAfter)
        XCTAssertEqual(events(facts), [.mtlsIdentityMissing])
        let text = String(decoding: MetricsRenderer.render(snapshot(facts)), as: UTF8.self)
        XCTAssertTrue(text.contains("pinguard_mtls_client_certificate_requested{target=\"mtls\",address=\"127.0.0.1:\(w.farm.port)\"} 1"), text)
        XCTAssertTrue(text.contains("pinguard_mtls_client_certificate_presented{target=\"mtls\",address=\"127.0.0.1:\(w.farm.port)\"} 0"), text)
        XCTAssertFalse(text.contains("pinguard_client_certificate_not_after_timestamp_seconds{"))
    }

    func testAPEMIdentityIsSentWhenAskedAndItsExpiryReported() throws {
        let w = try world()
        let identity = try ClientIdentity(source: .pem(certificate: w.files.pki.clientCertificate, key: w.files.pki.clientKey))
        let facts = probe(w, identity: identity)
        XCTAssertNil(facts.error)
        XCTAssertNil(facts.handshakeError)
        XCTAssertTrue(facts.clientAuth.requested)
        XCTAssertTrue(facts.clientAuth.presented)
        XCTAssertEqual(facts.clientAuth.certificateSubject, "CN=prometheus")
        XCTAssertEqual(facts.clientAuth.certificateNotAfter, try w.files.clientNotAfter())
        XCTAssertEqual(events(facts), [.mtlsIdentityUsed])
        let text = String(decoding: MetricsRenderer.render(snapshot(facts)), as: UTF8.self)
        let notAfter = Int(try w.files.clientNotAfter().timeIntervalSince1970)
        XCTAssertTrue(text.contains("pinguard_client_certificate_not_after_timestamp_seconds{target=\"mtls\"} \(notAfter)\n"), text)
        XCTAssertTrue(text.contains("pinguard_mtls_client_certificate_presented{target=\"mtls\",address=\"127.0.0.1:\(w.farm.port)\"} 1"), text)
        // Certificate and key in one file (client_key defaults to client_cert).
        let combined = try ClientIdentity(source: .pem(certificate: w.files.combinedPEM, key: w.files.combinedPEM))
        XCTAssertTrue(probe(w, identity: combined).clientAuth.presented)
    }

    func testAPKCS12IdentityWithAPasswordFileIsSentWhenAsked() throws {
        let w = try world()
        let identity = try ClientIdentity(source: .pkcs12(file: w.files.pkcs12, passwordFile: w.files.passwordFile))
        XCTAssertEqual(identity.notAfter, try w.files.clientNotAfter())
        let facts = probe(w, identity: identity)
        XCTAssertNil(facts.error)
        XCTAssertTrue(facts.clientAuth.requested)
        XCTAssertTrue(facts.clientAuth.presented)
        XCTAssertEqual(events(facts), [.mtlsIdentityUsed])
    }

    /// A server that does not ask never sees the identity; its expiry is still reported.
    func testAServerThatDoesNotAskGetsNoCertificate() throws {
        let w = try world()
        let plain = try TLSServerFarm(sites: [TLSSite(serverName: "localhost", chainFile: w.files.pki.serverCertificate,
                                                      keyFile: w.files.pki.serverKey)], ipv6: false)
        defer { plain.stop() }
        let identity = try ClientIdentity(source: .pem(certificate: w.files.pki.clientCertificate, key: w.files.pki.clientKey))
        let facts = probe(w, identity: identity, port: plain.port)
        XCTAssertTrue(facts.success)
        XCTAssertFalse(facts.clientAuth.requested)
        XCTAssertFalse(facts.clientAuth.presented)
        XCTAssertNotNil(facts.clientAuth.certificateNotAfter)
        XCTAssertEqual(events(facts), [])
    }

    /// A TLS 1.2 server that aborts the handshake without a client certificate: the identity decides the outcome.
    func testTheIdentityDecidesTheHandshakeWithAServerThatAbortsWithoutIt() throws {
        let w = try world()
        let server = try TLSServer(certificate: w.files.pki.serverCertificate, key: w.files.pki.serverKey, chain: nil,
                                   extraArguments: ["-Verify", "1", "-verify_return_error", "-tls1_2", "-CAfile", w.files.pki.clientCA])
        defer { server.stop() }
        let without = probe(w, identity: nil, port: server.port)
        XCTAssertTrue(without.clientAuth.requested)
        XCTAssertNotNil(without.error ?? without.handshakeError, "the server aborts without a client certificate")
        XCTAssertEqual(events(without), [.mtlsIdentityMissing])
        let identity = try ClientIdentity(source: .pkcs12(file: w.files.pkcs12, passwordFile: w.files.passwordFile))
        let with = probe(w, identity: identity, port: server.port)
        XCTAssertNil(with.error)
        XCTAssertNil(with.handshakeError)
        XCTAssertTrue(with.clientAuth.presented)
        XCTAssertEqual(with.tlsVersion, "TLSv1.2")
    }

    func testLoadErrorsNameTheKeyAndTheFile() throws {
        let w = try world()
        let p = w.files.pki
        let cases: [(ClientIdentitySource, String)] = [
            (.pem(certificate: w.files.brokenPEM, key: p.clientKey), "client_cert \(w.files.brokenPEM): certificate block 1 is broken"),
            (.pem(certificate: p.clientCertificate, key: p.strangerKey), "client_key \(p.strangerKey): the private key does not belong to the client certificate"),
            (.pem(certificate: p.clientCertificate, key: p.clientCertificate), "client_key \(p.clientCertificate): no PEM private key in the file"),
            (.pem(certificate: p.clientCertificate, key: w.files.encryptedKey), "client_key \(w.files.encryptedKey): the private key is encrypted"),
            (.pkcs12(file: w.files.pkcs12, passwordFile: w.files.wrongPasswordFile), "client_pkcs12 \(w.files.pkcs12): wrong password"),
            (.pkcs12(file: w.files.notPKCS12, passwordFile: nil), "client_pkcs12 \(w.files.notPKCS12): not a PKCS#12 file"),
            (.pem(certificate: p.path("missing.pem"), key: p.clientKey), "\(p.path("missing.pem")): cannot read the file"),
        ]
        for (source, expected) in cases {
            do {
                _ = try ClientIdentity(source: source)
                XCTFail("\(source) loaded")
            } catch {
                XCTAssertTrue(error.message.hasPrefix(expected), "\(error.message) does not start with \(expected)")
            }
        }
    }

    func snapshot(_ facts: ProbeFacts) -> MetricsSnapshot {
        var s = MetricsSnapshot()
        s.results = [TargetResult.evaluate(facts, target: Target(host: "localhost", port: facts.port, name: "mtls"), sets: [],
                                           now: facts.finishedAt)]
        return s
    }
}
