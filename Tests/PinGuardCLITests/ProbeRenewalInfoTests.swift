import Foundation
import PinGuardCore
import PinGuardDemo
import PinGuardFetchTestSupport
import PinGuardTestSupport
import XCTest

/// `pinguard probe` asks the leaf's CA for its renewal window once, through the guarded fetcher of
/// `--config`, and shows it in `--json`; a real TLS server and a real HTTPS authority on loopback.
final class ProbeRenewalInfoTests: XCTestCase {
    private struct Site {
        let server: LoopbackTLSServer
        let issuerFile: String
        let certID: String
        let folder: URL
    }

    /// A server for api.example whose leaf names its issuer's key (AKI) and has serial 0x87654321.
    private func site() throws -> Site {
        let issuer = try DemoCertificate.issue(commonName: "Test Issuing CA", dnsName: nil, key: try DemoKey(.p256), issuer: nil, isCA: true,
                                               validFrom: -86_400, validUntil: 365 * 86_400, serial: 7)
        let leaf = try DemoCertificate.issue(commonName: "api.example", dnsName: "api.example", key: try DemoKey(.p256), issuer: issuer,
                                             isCA: false, validFrom: -86_400, validUntil: 89 * 86_400, serial: 0x8765_4321,
                                             extendedKeyUsage: "serverAuth", authorityKeyID: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-probe-ari-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let issuerFile = folder.appendingPathComponent("issuer.pem").path
        try issuer.pem.write(toFile: issuerFile, atomically: true, encoding: .utf8)
        let certID = try XCTUnwrap(RenewalInfoID.of(try leaf.facts))
        return Site(server: try LoopbackTLSServer(leaf: leaf, chain: issuer), issuerFile: issuerFile, certID: certID, folder: folder)
    }

    private func probe(_ site: Site, config: String, extra: [String] = []) throws -> [String: Any] {
        let path = site.folder.appendingPathComponent("pinguard.yml").path
        try ("policies: []\n" + config).write(toFile: path, atomically: true, encoding: .utf8)
        let r = try runPinguard(args: ["probe", "api.example:\(site.server.port)", "--connect", "127.0.0.1", "--ca-file", site.issuerFile,
                                       "--config", path, "--json"] + extra)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["forecast"] as? [String: Any], "\(r)")
    }

    func testTheCAsWindowIsTheForecastOfProbeJSON() async throws {
        let tls = try AuthorityTLS()
        let authority = try await AuthorityServer(tls: tls)
        let site = try site()
        defer { site.server.stop() }
        authority.route("/directory", .json(#"{"renewalInfo": "\#(authority.url("/renewal-info"))"}"#))
        authority.route("/renewal-info/\(site.certID)", .json(#"{"suggestedWindow": {"start": "2030-01-10T00:00:00Z", "end": "2030-01-12T00:00:00Z"}, "explanationURL": "https://ca.example/why"}"#))

        let forecast = try probe(site, config: "fetch: {networks: [127.0.0.0/8], ca_file: \"\(tls.caFile)\"}\n"
                                     + "renewal: {acme_directory: \"\(authority.url("/directory"))\"}\n")
        let window = try XCTUnwrap(forecast["ari_window"] as? [String: Any], "\(forecast)")

        XCTAssertEqual(forecast["when_basis"] as? String, "ari")
        XCTAssertEqual(forecast["next_renewal"] as? String, "2030-01-10T00:00:00Z")
        XCTAssertEqual(window["end"] as? String, "2030-01-12T00:00:00Z")
        XCTAssertEqual(window["explanation_url"] as? String, "https://ca.example/why")
        XCTAssertEqual(authority.requests("/renewal-info/\(site.certID)"), 1)
        await authority.stop()
    }

    func testWithoutFetchNetworksOrWithNoneTheCAIsNotAsked() async throws {
        let tls = try AuthorityTLS()
        let authority = try await AuthorityServer(tls: tls)
        let site = try site()
        defer { site.server.stop() }
        let directory = "renewal: {acme_directory: \"\(authority.url("/directory"))\"}\n"

        let refused = try probe(site, config: "fetch: {ca_file: \"\(tls.caFile)\"}\n" + directory)
        let off = try probe(site, config: "fetch: {networks: [127.0.0.0/8], ca_file: \"\(tls.caFile)\"}\n" + directory,
                            extra: ["--acme-directory", "none"])

        XCTAssertEqual(refused["when_basis"] as? String, "lifetime")
        XCTAssertTrue(refused["ari_window"] is NSNull)
        XCTAssertEqual(off["when_basis"] as? String, "lifetime")
        XCTAssertEqual(authority.totalRequests, 0)
        await authority.stop()
    }
}
