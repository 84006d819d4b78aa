import Foundation
import PinGuardARI
import PinGuardCore
import PinGuardDemo
import PinGuardFetch
import PinGuardFetchTestSupport

/// A CA on loopback HTTPS serving an ACME directory and renewal information, with a leaf it "issued"
/// (an Authority Key Identifier and a serial) and a watch that asks it through the guarded fetcher.
struct ACMEAuthority {
    let server: AuthorityServer
    let tls: AuthorityTLS
    /// The served chain: the leaf (with its Authority Key Identifier), then its issuer.
    let chain: [ChainCertificate]
    /// The leaf's RFC 9773 identifier.
    let certID: String
    let store = MemoryDocumentStore()

    init() async throws {
        tls = try AuthorityTLS()
        server = try await AuthorityServer(tls: tls)
        let issuerKey = try DemoKey(.p256)
        let issuer = try DemoCertificate.issue(commonName: "Test Issuing CA", dnsName: nil, key: issuerKey, issuer: nil, isCA: true,
                                               validFrom: -86_400, validUntil: 365 * 86_400, serial: 7)
        let leaf = try DemoCertificate.issue(commonName: "api.example", dnsName: "api.example", key: try DemoKey(.p256), issuer: issuer,
                                             isCA: false, validFrom: -86_400, validUntil: 89 * 86_400, serial: 0x8765_4321,
                                             authorityKeyID: true)
        var issuerFacts = try issuer.facts
        issuerFacts.depth = 1
        chain = [try leaf.facts, issuerFacts]
        certID = try XCTUnwrapID(RenewalInfoID.of(chain[0]))
        server.route("/directory", .json(#"{"newNonce": "\#(server.url("/nonce"))", "renewalInfo": "\#(server.url("/renewal-info"))"}"#))
    }

    /// The path of this leaf's renewal information.
    var renewalInfoPath: String { "/renewal-info/\(certID)" }

    /// Serves `window` (RFC 3339 times) for the leaf, with `retryAfter` when given.
    func serveWindow(start: Date, end: Date, explanation: String? = nil, retryAfter: String? = "21600") {
        let why = explanation.map { #", "explanationURL": "\#($0)""# } ?? ""
        server.route(renewalInfoPath, .json(#"{"suggestedWindow": {"start": "\#(RFC3339.format(start))", "end": "\#(RFC3339.format(end))"}\#(why)}"#,
                                            headers: retryAfter.map { [("Retry-After", $0)] } ?? []))
    }

    /// A watch asking this authority through a fetcher allowed onto loopback (or the default networks).
    func watch(loopbackAllowed: Bool = true) throws -> RenewalInfoWatch {
        let settings = FetchSettings(networks: loopbackAllowed ? [IPNetwork("127.0.0.0/8")!] : FetchSettings.publicUnicast,
                                     caFile: tls.caFile, timeout: 10)
        let watch = RenewalInfoWatch(client: RenewalInfoClient(fetcher: try GuardedFetcher(settings: settings), store: store))
        watch.track([WatchedCertificate(certID: certID, directory: server.url("/directory"))])
        return watch
    }
}

struct MissingIdentifier: Error {}

func XCTUnwrapID(_ id: String?) throws -> String {
    guard let id else { throw MissingIdentifier() }
    return id
}
