import Foundation
import PinGuardARI
import PinGuardCommands
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// `probe` asks its lookups for the leaf's renewal window once, from the directory it is given, and forecasts
/// with the answer; a failure is one line on stderr and the forecast stays as declared. A real TLS server on
/// loopback; the CA's answers scripted.
final class ProbeRenewalWindowTests: XCTestCase {
    /// Lookups that give one scripted answer (nil: the fetcher cannot be made) and record what they are asked.
    final class ScriptedLookups: ProbeLookups, @unchecked Sendable {
        struct CannotFetch: Error, CustomStringConvertible {
            var description: String { "fetch.ca_file: not a CA bundle" }
        }

        let answer: RenewalInfoAnswer?
        private let lock = NSLock()
        private var questions: [WatchedCertificate] = []

        init(_ answer: RenewalInfoAnswer?) { self.answer = answer }

        var asked: [WatchedCertificate] { lock.withLock { questions } }

        /// How many times revocation was asked.
        var revocationChecks: Int { lock.withLock { checks } }
        private var checks = 0

        func revocation(of probe: TargetProbe, fetch settings: FetchSettings,
                        notice: @escaping @Sendable (String) -> Void) async throws -> TargetProbe {
            lock.withLock { checks += 1 }
            notice("fetch refused: crl.example resolves to 127.0.0.1, outside fetch.networks")
            return probe
        }

        /// Downloads nothing: the servers here send their whole chains.
        func issuers(_ urls: [String], into issuers: FetchedIssuers, fetch settings: FetchSettings,
                     notice: @escaping @Sendable (String) -> Void) async throws -> Bool { false }

        func renewalInfo(of certificate: WatchedCertificate, fetch settings: FetchSettings, now: Date) async throws -> RenewalInfoAnswer {
            lock.withLock { questions.append(certificate) }
            guard let answer else { throw CannotFetch() }
            return answer
        }
    }

    var server: LoopbackTLSServer!
    var issuerFile: String!

    /// A server for api.example whose leaf names its issuer's key (AKI), as RFC 9773 identifiers need.
    override func setUpWithError() throws {
        let issuer = try DemoCertificate.issue(commonName: "Test Issuing CA", dnsName: nil, key: try DemoKey(.p256), issuer: nil, isCA: true,
                                               validFrom: -86_400, validUntil: 365 * 86_400, serial: 7)
        let leaf = try DemoCertificate.issue(commonName: "api.example", dnsName: "api.example", key: try DemoKey(.p256), issuer: issuer,
                                             isCA: false, validFrom: -86_400, validUntil: 89 * 86_400, serial: 0x8765_4321,
                                             extendedKeyUsage: "serverAuth", authorityKeyID: true)
        issuerFile = try PolicyYAML.write(issuer.pem, to: try TemporaryDirectory.make("pinguard-probe-ari"), as: "issuer.pem")
        server = try LoopbackTLSServer(leaf: leaf, chain: issuer)
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    func probe(_ lookups: ScriptedLookups, directory: String = "https://acme.example/directory") async throws -> (CommandOutcome, [String: Any]) {
        var o = ProbeCommand.Options(host: "api.example", port: server.port, now: Date())
        o.connect = ["127.0.0.1"]
        o.caFile = issuerFile
        o.acmeDirectory = directory
        o.lookups = lookups
        o.json = true
        let r = await ProbeCommand.run(o)
        let forecast = try XCTUnwrap((try r.json() as? [String: Any])?["forecast"] as? [String: Any], r.description)
        return (r, forecast)
    }

    func testTheCAsWindowIsAskedOnceAndIsTheForecast() async throws {
        let start = try XCTUnwrap(RFC3339.parse("2030-01-10T00:00:00Z")), end = try XCTUnwrap(RFC3339.parse("2030-01-12T00:00:00Z"))
        let lookups = ScriptedLookups(.window(RenewalWindow(start: start, end: end), recheck: end))
        let (r, forecast) = try await probe(lookups)
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertEqual(lookups.asked.map(\.directory), ["https://acme.example/directory"])
        XCTAssertEqual(forecast["when_basis"] as? String, "ari")
        XCTAssertEqual(forecast["next_renewal"] as? String, "2030-01-10T00:00:00Z")
    }

    func testAFailureIsOneLineAndTheForecastStaysAsDeclared() async throws {
        let (r, forecast) = try await probe(ScriptedLookups(.failed("HTTP 503", recheck: Date())))
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertEqual(r.stderr.last, "pinguard: renewal information of the leaf: HTTP 503")
        XCTAssertEqual(forecast["when_basis"] as? String, "lifetime")
    }

    func testNoneAsksNothing() async throws {
        let lookups = ScriptedLookups(.none(recheck: Date()))
        let (r, forecast) = try await probe(lookups, directory: RenewalSettings.noDirectory)
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertEqual(lookups.asked, [])
        XCTAssertEqual(forecast["when_basis"] as? String, "lifetime")
    }

    func testCRLsAreCheckedUnlessTurnedOffAndRefusalsAreSaid() async throws {
        let lookups = ScriptedLookups(.none(recheck: Date()))
        let (r, _) = try await probe(lookups)
        XCTAssertEqual(lookups.revocationChecks, 1)
        XCTAssertEqual(r.stderr, ["pinguard: fetch refused: crl.example resolves to 127.0.0.1, outside fetch.networks"])
        var o = ProbeCommand.Options(host: "api.example", port: server.port, now: Date())
        o.connect = ["127.0.0.1"]
        o.caFile = issuerFile
        o.crl = false
        o.lookups = lookups
        let off = await ProbeCommand.run(o)
        XCTAssertEqual(off.status, 0, off.description)
        XCTAssertEqual(lookups.revocationChecks, 1, "--no-crl asks nothing")
        XCTAssertEqual(off.stderr, [])
    }

    func testAFetcherThatCannotBeMadeIsStatusTwoWithNothingOnStdout() async throws {
        var o = ProbeCommand.Options(host: "api.example", port: server.port, now: Date())
        o.connect = ["127.0.0.1"]
        o.caFile = issuerFile
        o.acmeDirectory = "https://acme.example/directory"
        o.crl = false
        o.lookups = ScriptedLookups(nil)
        let r = await ProbeCommand.run(o)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, ["pinguard: fetch.ca_file: not a CA bundle"])
    }
}
