import Foundation
import COpenSSL
import PinGuardCore
@testable import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// Chrome and Apple download a missing intermediate from the caIssuers URL of the certificate they cannot chain;
/// Android and the JVM do not. A search never waits: it names the URL it wants, and takes the certificate once
/// it is recorded.
final class ClientPathIssuerDownloadTests: XCTestCase {
    static let url = "http://ca.pinguard.test/ye1.cer"

    func stores(_ pki: GenerationMovePKI) throws -> [ClientStore] {
        [try pki.store(.android, known: "24-37", x1: nil, x2: nil, ye: "24-"),
         try pki.store(.chrome, known: "120-140", x1: nil, x2: nil, ye: "105-"),
         try pki.store(.ios, known: "15-26", x1: nil, x2: nil, ye: "10-")]
    }

    func testALeafServedAloneIsTrustedByChromeAndAppleOnceItsIssuerIsDownloadedAndNeverByAndroid() throws {
        let pki = try GenerationMovePKI(caIssuers: Self.url)
        let issuers = FetchedIssuers()
        let judge = ClientPathJudge(stores: try stores(pki))
        judge.fetchIssuers(from: issuers)
        let before = try pki.paths(judge, [pki.leaf])
        XCTAssertEqual(before.pendingIssuers, [Self.url])
        for client in [CTClient.chrome, .ios] {
            let path = try XCTUnwrap(before.byClient[client]?.first)
            XCTAssertFalse(path.trusted)
            XCTAssertTrue(path.reason?.contains("downloads the missing issuer from \(Self.url)") ?? false, path.reason ?? "")
        }
        let android = try XCTUnwrap(before.byClient[.android]?.first)
        XCTAssertFalse(android.trusted)
        XCTAssertFalse(android.reason?.contains("caIssuers") ?? true, "Android downloads nothing: \(android.reason ?? "")")
        XCTAssertTrue(android.reason?.contains("judged as on a fresh start: Android also looks in its cache of the intermediates") ?? false,
                      "Android's reason says its intermediate cache is taken as empty: \(android.reason ?? "")")
        XCTAssertFalse(try XCTUnwrap(before.byClient[.chrome]?.first).reason?.contains("fresh start") ?? true, "only Android keeps such a cache")

        XCTAssertTrue(issuers.record(Self.url, body: pki.intermediate.der, at: Date()))
        let after = try pki.paths(judge, [pki.leaf])
        XCTAssertEqual(after.pendingIssuers, [])
        for client in [CTClient.chrome, .ios] {
            let path = try XCTUnwrap(after.byClient[client]?.first)
            XCTAssertTrue(path.trusted, path.reason ?? "")
            XCTAssertEqual(GenerationMovePKI.names(path), ["app.pinguard.test", "Test YE1", "Test Root YE"])
            XCTAssertEqual(path.chain.map(\.source), [.served, .fetched, .store])
        }
        XCTAssertFalse(try XCTUnwrap(after.byClient[.android]?.first).trusted, "Android still finds no issuer")
    }

    func testAServedIntermediateIsTakenWithoutAnyDownload() throws {
        let pki = try GenerationMovePKI(caIssuers: Self.url)
        let issuers = FetchedIssuers()
        let judge = ClientPathJudge(stores: try stores(pki))
        judge.fetchIssuers(from: issuers)
        let paths = try pki.paths(judge, [pki.leaf, pki.intermediate])
        XCTAssertEqual(paths.pendingIssuers, [], "a client with the issuer at hand fetches nothing")
        XCTAssertTrue(paths.byClient.values.allSatisfy { $0.allSatisfy(\.trusted) })
    }

    func testAFailedDownloadIsNamedInTheReason() throws {
        let pki = try GenerationMovePKI(caIssuers: Self.url)
        let issuers = FetchedIssuers()
        let judge = ClientPathJudge(stores: try stores(pki))
        judge.fetchIssuers(from: issuers)
        _ = try pki.paths(judge, [pki.leaf])
        issuers.recordFailure(Self.url, reason: "HTTP status 404", at: Date())
        let chrome = try XCTUnwrap(try pki.paths(judge, [pki.leaf]).byClient[.chrome]?.first)
        XCTAssertFalse(chrome.trusted)
        XCTAssertTrue(chrome.reason?.contains("which failed: HTTP status 404") ?? false, chrome.reason ?? "")
    }

    func testDownloadedCertificatesAreDueAgainAfterADayAndAFailureAfterAnHour() throws {
        let pki = try GenerationMovePKI(caIssuers: Self.url)
        let issuers = FetchedIssuers()
        let judge = ClientPathJudge(stores: try stores(pki))
        judge.fetchIssuers(from: issuers)
        XCTAssertTrue(issuers.record(Self.url, body: pki.intermediate.der, at: Date().addingTimeInterval(-FetchedIssuers.refreshAfter - 60)))
        let stale = try pki.paths(judge, [pki.leaf])
        XCTAssertTrue(stale.byClient[.chrome]?.first?.trusted ?? false, "the day-old download still stands")
        XCTAssertEqual(stale.pendingIssuers, [Self.url], "and is due again")
        issuers.recordFailure(Self.url, reason: "HTTP status 503", at: Date().addingTimeInterval(-60))
        XCTAssertEqual(try pki.paths(judge, [pki.leaf]).pendingIssuers, [], "a failure a minute old is not tried again")
    }

    func testAnOfflineJudgementSaysWhatTheClientWouldDownload() throws {
        let pki = try GenerationMovePKI(caIssuers: Self.url)
        let chrome = try XCTUnwrap(try pki.paths(ClientPathJudge(stores: try stores(pki)), [pki.leaf]).byClient[.chrome]?.first)
        XCTAssertTrue(chrome.reason?.contains("which this offline judgement does not") ?? false, chrome.reason ?? "")
    }

    func testResponsesAreReadAsDERThenPKCS7ThenPEMAndAnythingElseHoldsNoCertificate() throws {
        let pki = try GenerationMovePKI()
        let issuers = FetchedIssuers()
        XCTAssertTrue(issuers.record("http://a/der", body: pki.intermediate.der, at: Date()))
        XCTAssertTrue(issuers.record("http://a/pem", body: Array(pki.intermediate.pem.utf8), at: Date()))
        let p7 = try OpenSSLTool.pkcs7(certificates: [pki.intermediate.pem, pki.yeByX2.pem])
        XCTAssertEqual(FetchedIssuers.certificates(in: p7).count, 2)
        FetchedIssuers.certificates(in: p7).forEach { X509_free($0) }
        XCTAssertFalse(issuers.record("http://a/junk", body: Array("<html>not found</html>".utf8), at: Date()))
        XCTAssertFalse(issuers.record("http://a/trailing", body: pki.intermediate.der + [0], at: Date()),
                       "a DER certificate followed by more bytes is not one certificate")
        XCTAssertTrue(issuers.holds("http://a/der"))
        XCTAssertFalse(issuers.holds("http://a/junk"))
    }

    func testEachClientDownloadsOnlyTheURLsItsSourceAllows() {
        let many = (1...12).map { "http://ca\($0).pinguard.test/i.cer" }
        XCTAssertEqual(PathStrategy.chrome.caIssuersURLs(["ldap://x/y"] + many, certificateValid: true), Array(many.prefix(4)),
                       "Chrome takes the first 5 URLs of any scheme and fetches the http ones")
        XCTAssertEqual(PathStrategy.apple.caIssuersURLs(Array(many.prefix(9)), certificateValid: true).count, 9)
        XCTAssertEqual(PathStrategy.apple.caIssuersURLs(Array(many.prefix(10)), certificateValid: true), [],
                       "Apple fetches nothing for a certificate naming 10 or more")
        XCTAssertEqual(PathStrategy.apple.caIssuersURLs(["http://a/b"], certificateValid: false), [], "nor for an expired one")
        XCTAssertEqual(PathStrategy.chrome.caIssuersURLs(["https://a/b"], certificateValid: true), [], "http only")
        XCTAssertEqual(PathStrategy.conscrypt.caIssuersURLs(many, certificateValid: true), [])
        XCTAssertEqual(PathStrategy.okhttp.caIssuersURLs(many, certificateValid: true), [])
    }
}
