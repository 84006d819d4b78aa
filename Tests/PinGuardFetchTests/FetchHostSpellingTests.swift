@testable import PinGuardFetch
import PinGuardCore
import PinGuardFetchTestSupport
import XCTest

/// One host, one address: every spelling of a host (case, percent-encoding, Unicode, a trailing dot) is folded
/// to one name before it is resolved and checked, and the request names that same host.
final class FetchHostSpellingTests: XCTestCase {
    /// Spellings of the loopback name and of guarded addresses, each with the canonical host it must come to.
    static let spellings: [(String, String)] = [
        ("LOCALHOST", "localhost"), ("LocalHost", "localhost"), ("localhost.", "localhost"), ("LOCALHOST.", "localhost"),
        ("%6C%6F%63%61%6C%68%6F%73%74", "localhost"), ("%4cocalhost", "localhost"), ("loc%41lhost", "localhost"),
        ("127.0.0.1", "127.0.0.1"), ("%31%32%37.0.0.1", "127.0.0.1"), ("169.254.169.254", "169.254.169.254"),
        ("%31%36%39.254.169.254", "169.254.169.254"), ("[::1]", "::1"), ("[0:0:0:0:0:0:0:1]", "0:0:0:0:0:0:0:1"),
        ("[::FFFF:127.0.0.1]", "::ffff:127.0.0.1"), ("B\u{00DC}CHER.example", "xn--bcher-kva.example"),
        ("b%C3%BCcher.example", "xn--bcher-kva.example"), ("M\u{00FC}nchen.example.", "xn--mnchen-3ya.example"),
    ]

    func testEverySpellingComesToOneCanonicalHostThatTheRequestNames() {
        for (spelling, canonical) in Self.spellings {
            for purpose in FetchPurpose.allCases {
                guard case .success(let url) = FetchURL.parse("https://\(spelling):8443/a/b%20c?x=1", purpose: purpose) else {
                    return XCTFail("\(spelling) refused for \(purpose)")
                }
                XCTAssertEqual(url.host, canonical, spelling)
                XCTAssertEqual(url.authority, (canonical.contains(":") ? "[\(canonical)]" : canonical) + ":8443", "\(spelling): the Host header names the checked host")
                XCTAssertEqual(url.target, "/a/b%20c?x=1")
            }
        }
    }

    func testNumericSpellingsTheResolverWouldReadAsAnotherAddressAreRefused() {
        for spelling in ["127.1", "0x7f.0.0.1", "2130706433", "0177.0.0.1", "0x7f000001", "%32%31%33%30%37%30%36%34%33%33",
                         "169.254.43518", "[::1%25lo]", "local host", "localhost%00.example", "a%0d%0ab.example", "%zz.example"] {
            guard case .failure(let refusal) = FetchURL.parse("http://\(spelling)/x", purpose: .crl) else {
                return XCTFail("\(spelling) was accepted")
            }
            XCTAssertFalse(refusal.reason.contains("\r") || refusal.reason.contains("\u{0}"), refusal.reason)
        }
    }

    func testPunycodeEncodesTheRFC3492Samples() {
        XCTAssertEqual(Punycode.encode("bücher"), "bcher-kva")
        XCTAssertEqual(Punycode.encode("münchen"), "mnchen-3ya")
        XCTAssertEqual(Punycode.encode("ü"), "tda")
        XCTAssertEqual(Punycode.encode("他们为什么不说中文"), "ihqwcrb4cv8a8dqg056pqjye")
    }

    func testGuardedSpellingsAreRefusedWithoutARequestThroughEveryPurposeAndRedirect() async throws {
        let inside = try await AuthorityServer(address: "127.0.0.2")
        inside.route("/secret", .json("\"secret\""))
        let front = try await AuthorityServer()
        let guarded = try GuardedFetcher(settings: FetchSettings(timeout: 10))
        let frontOnly = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.1/32")!], timeout: 10))
        var asked = 0
        for spelling in ["LOCALHOST", "%6Cocalhost", "localhost.", "%31%32%37.0.0.2", "127.0.0.2", "[::FFFF:127.0.0.2]"] {
            let target = "http://\(spelling):\(inside.port)/secret"
            for purpose in FetchPurpose.allCases {
                let direct = await guarded.fetch(FetchRequest(url: target.replacingOccurrences(of: "http:", with: purpose == .crl ? "http:" : "https:"), purpose: purpose))
                guard case .refused = direct else { return XCTFail("\(spelling) for \(purpose): \(direct)") }
            }
            // A redirect to a spelling of the address outside fetch.networks; the loopback name's spellings resolve to
            // 127.0.0.1, which the front's fetcher may reach, so they are checked directly above only.
            guard !spelling.lowercased().contains("localhost"), !spelling.lowercased().contains("%6c") else { continue }
            let path = "/hop\(asked)"
            front.route(path, .redirect(target))
            let redirected = await frontOnly.fetch(FetchRequest(url: front.url(path), purpose: .crl))
            guard case .refused(let reason) = redirected else { return XCTFail("redirect to \(spelling): \(redirected)") }
            XCTAssertTrue(reason.contains("fetch.networks"), reason)
            asked += 1
        }
        XCTAssertEqual(front.totalRequests, asked, "each redirect was asked once")
        XCTAssertEqual(inside.totalRequests, 0, "no spelling reached the guarded address")
        await inside.stop()
        await front.stop()
    }

    func testACanonicalisedNameIsFetchedFromItsCheckedAddress() async throws {
        let server = try await AuthorityServer()
        server.route("/list", .json("\"ok\""))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!, IPNetwork("::1/128")!], timeout: 10))
        for spelling in ["LOCALHOST", "%6Cocalhost", "localhost."] {
            let outcome = await fetcher.fetch(FetchRequest(url: "http://\(spelling):\(server.port)/list", purpose: .crl))
            guard case .fetched(let document) = outcome else { return XCTFail("\(spelling): \(outcome)") }
            XCTAssertEqual(document.status, 200, spelling)
        }
        XCTAssertEqual(server.requests("/list"), 3)
        await server.stop()
    }
}
