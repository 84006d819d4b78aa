import PinGuardCore
import PinGuardFetch
import PinGuardFetchTestSupport
import XCTest

/// The guarded fetcher against a real HTTPS server on loopback made with a CA of the test's own.
final class GuardedFetcherTests: XCTestCase {
    private let loopback = [IPNetwork("127.0.0.0/8")!]

    func testFetchesFromLoopbackWhenFetchNetworksListsItAndTheCAIsGiven() async throws {
        let tls = try AuthorityTLS()
        let server = try await AuthorityServer(tls: tls)
        server.route("/directory", .json("{\"renewalInfo\": \"x\"}", headers: [("Retry-After", "60")]))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: loopback, caFile: tls.caFile, timeout: 10))

        let outcome = await fetcher.fetch(FetchRequest(url: server.url("/directory"), purpose: .acmeDirectory))

        guard case .fetched(let document) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(document.status, 200)
        XCTAssertEqual(String(decoding: document.body, as: UTF8.self), "{\"renewalInfo\": \"x\"}")
        XCTAssertEqual(document.headers["retry-after"], "60")
        XCTAssertEqual(server.requests("/directory"), 1)
        await server.stop()
    }

    func testWithoutFetchNetworksLoopbackIsRefusedAndNeverAsked() async throws {
        let tls = try AuthorityTLS()
        let server = try await AuthorityServer(tls: tls)
        server.route("/directory", .json("{}"))
        let fetcher = try GuardedFetcher(settings: FetchSettings(caFile: tls.caFile, timeout: 10))

        let outcome = await fetcher.fetch(FetchRequest(url: server.url("/directory"), purpose: .acmeDirectory))

        guard case .refused(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.contains("fetch.networks"), reason)
        XCTAssertTrue(reason.contains("127.0.0.1"), reason)
        XCTAssertEqual(server.totalRequests, 0)
        await server.stop()
    }

    func testARedirectToAnAddressOutsideFetchNetworksIsRefused() async throws {
        let tls = try AuthorityTLS()
        let server = try await AuthorityServer(tls: tls)
        server.route("/moved", .redirect("https://169.254.169.254/latest/meta-data/"))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: loopback, caFile: tls.caFile, timeout: 10))

        let outcome = await fetcher.fetch(FetchRequest(url: server.url("/moved"), purpose: .renewalInfo))

        guard case .refused(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.contains("169.254.169.254") && reason.contains("fetch.networks"), reason)
        XCTAssertEqual(server.requests("/moved"), 1)
        await server.stop()
    }

    func testRedirectsAreFollowedByHandUpToFive() async throws {
        let tls = try AuthorityTLS()
        let server = try await AuthorityServer(tls: tls)
        server.route("/a", .redirect("/b", status: 301))
        server.route("/b", .redirect(server.url("/c"), status: 307))
        server.route("/c", .json("\"here\""))
        server.route("/loop", .redirect("/loop"))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: loopback, caFile: tls.caFile, timeout: 10))

        let followed = await fetcher.fetch(FetchRequest(url: server.url("/a"), purpose: .ctLogList))
        let looped = await fetcher.fetch(FetchRequest(url: server.url("/loop"), purpose: .ctLogList))

        guard case .fetched(let document) = followed else { return XCTFail("\(followed)") }
        XCTAssertEqual(String(decoding: document.body, as: UTF8.self), "\"here\"")
        XCTAssertEqual(document.url, server.url("/a"))
        guard case .refused(let reason) = looped else { return XCTFail("\(looped)") }
        XCTAssertTrue(reason.contains("more than 5 redirects"), reason)
        XCTAssertEqual(server.requests("/loop"), 6)
        await server.stop()
    }

    func testABodyOverThePurposeCapIsRefusedWithOrWithoutALength() async throws {
        let tls = try AuthorityTLS()
        let server = try await AuthorityServer(tls: tls)
        let big = [UInt8](repeating: 0x41, count: FetchPurpose.renewalInfo.maxBytes + 1)
        server.route("/said", AuthorityServer.Route(body: big))
        server.route("/unsaid", AuthorityServer.Route(body: big, chunked: true))
        server.route("/fits", AuthorityServer.Route(body: Array(big.dropLast()), chunked: true))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: loopback, caFile: tls.caFile, timeout: 10))

        for path in ["/said", "/unsaid"] {
            let outcome = await fetcher.fetch(FetchRequest(url: server.url(path), purpose: .renewalInfo))
            guard case .refused(let reason) = outcome else { XCTFail("\(path): \(outcome)"); continue }
            XCTAssertTrue(reason.contains("65536-byte cap for renewal_info"), reason)
        }
        let fits = await fetcher.fetch(FetchRequest(url: server.url("/fits"), purpose: .renewalInfo))
        guard case .fetched(let document) = fits else { return XCTFail("\(fits)") }
        XCTAssertEqual(document.body.count, FetchPurpose.renewalInfo.maxBytes)
        await server.stop()
    }

    func testAServerTheCAFileDoesNotVouchForFails() async throws {
        let server = try await AuthorityServer(tls: try AuthorityTLS())
        server.route("/directory", .json("{}"))
        let stranger = try AuthorityTLS()
        let withSystemStore = try GuardedFetcher(settings: FetchSettings(networks: loopback, timeout: 10))
        let withOtherCA = try GuardedFetcher(settings: FetchSettings(networks: loopback, caFile: stranger.caFile, timeout: 10))

        for fetcher in [withSystemStore, withOtherCA] {
            let outcome = await fetcher.fetch(FetchRequest(url: server.url("/directory"), purpose: .acmeDirectory))
            guard case .failed(let reason) = outcome else { XCTFail("\(outcome)"); continue }
            XCTAssertTrue(reason.contains("TLS"), reason)
        }
        XCTAssertEqual(server.totalRequests, 0)
        await server.stop()
    }

    func testPlainHTTPIsFetchedForCRLsOnly() async throws {
        let server = try await AuthorityServer()
        server.route("/ca.crl", AuthorityServer.Route(body: [0x30, 0x00]))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: loopback, timeout: 10))

        for purpose in [FetchPurpose.acmeDirectory, .renewalInfo, .ctLogList] {
            let outcome = await fetcher.fetch(FetchRequest(url: server.url("/ca.crl"), purpose: purpose))
            guard case .refused(let reason) = outcome else { XCTFail("\(purpose): \(outcome)"); continue }
            XCTAssertTrue(reason.contains("plain http is refused for \(purpose.rawValue)"), reason)
        }
        XCTAssertEqual(server.totalRequests, 0)
        let crl = await fetcher.fetch(FetchRequest(url: server.url("/ca.crl"), purpose: .crl))
        guard case .fetched(let document) = crl else { return XCTFail("\(crl)") }
        XCTAssertEqual(document.body, [0x30, 0x00])
        await server.stop()
    }

    func testAnUnreadableCAFileIsAnErrorNamingTheKey() {
        XCTAssertThrowsError(try GuardedFetcher(settings: FetchSettings(caFile: "/nonexistent/ca.pem"))) {
            XCTAssertTrue("\($0)".hasPrefix("fetch.ca_file"), "\($0)")
        }
    }

    func testARefusalIsSaidOncePerHost() async throws {
        let said = SaidLines()
        let notices = RefusalNotices { said.append($0) }
        let fetcher = try GuardedFetcher(settings: FetchSettings(timeout: 5), notices: notices)

        for path in ["/a", "/b", "/a"] {
            _ = await fetcher.fetch(FetchRequest(url: "https://127.0.0.1:9\(path)", purpose: .renewalInfo))
        }
        _ = await fetcher.fetch(FetchRequest(url: "https://[::1]:9/", purpose: .renewalInfo))

        XCTAssertEqual(said.lines.count, 2, "\(said.lines)")
        XCTAssertTrue(said.lines.allSatisfy { $0.contains("fetch.networks") }, "\(said.lines)")
    }
}

/// Lines a notice said, collected across threads.
final class SaidLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
