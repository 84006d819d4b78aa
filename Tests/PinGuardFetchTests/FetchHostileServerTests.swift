import PinGuardCore
import PinGuardFetch
import PinGuardFetchTestSupport
import XCTest

/// The guarded fetcher against servers that answer as no honest server would: endless headers, a connection that
/// ends mid-answer, informational answers first, a body ended by the close. Each ends in an outcome, with what the
/// client read bounded, never a hang or a grown buffer.
final class FetchHostileServerTests: XCTestCase {
    private func fetch(_ peer: ScriptedPeer, timeout: Double = 20) async throws -> FetchOutcome {
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: timeout))
        return await fetcher.fetch(FetchRequest(url: "http://127.0.0.1:\(peer.port)/list.crl", purpose: .crl))
    }

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testEndlessHeadersFailWithinTheHeaderLimitNotTheDeadline() async throws {
        let line = Self.bytes("X-Filler: " + String(repeating: "a", count: 1_000) + "\r\n")
        let peer = try ScriptedPeer {
            var first = true
            return AnyIterator { defer { first = false }; return first ? Self.bytes("HTTP/1.1 200 OK\r\n") : line }
        }
        defer { peer.stop() }
        let outcome = try await fetch(peer)
        guard case .failed(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.hasSuffix("the response's headers are over the 80 KiB limit"), "the header limit ends it, not the deadline: \(reason)")
        XCTAssertLessThan(peer.bytesTaken, 4 * 1_048_576, "what the client read of endless headers")
    }

    func testAConnectionEndedMidAnswerFailsAndSaysSo() async throws {
        let peer = try ScriptedPeer { AnyIterator([Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this")].makeIterator()) }
        defer { peer.stop() }
        let outcome = try await fetch(peer)
        guard case .failed(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.hasPrefix("http://127.0.0.1:\(peer.port)/list.crl: "), reason)
        XCTAssertTrue(reason.hasSuffix("the connection ended before the response did"), reason)
    }

    func testInformationalAnswersBeforeTheResponseAreSkipped() async throws {
        let answer = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
        let peer = try ScriptedPeer { AnyIterator([Self.bytes(answer)].makeIterator()) }
        defer { peer.stop() }
        let outcome = try await fetch(peer)
        guard case .fetched(let document) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(document.status, 200)
        XCTAssertEqual(document.body, Self.bytes("abc"))
    }

    func testABodyEndedByTheCloseIsWholeAndStillCapped() async throws {
        let whole = try ScriptedPeer { AnyIterator([Self.bytes("HTTP/1.1 200 OK\r\n\r\n"), [UInt8](repeating: 0x30, count: 70_000)].makeIterator()) }
        defer { whole.stop() }
        guard case .fetched(let document) = try await fetch(whole) else { return XCTFail("a close-delimited body") }
        XCTAssertEqual(document.body.count, 70_000)

        let endless = try ScriptedPeer {
            var first = true
            return AnyIterator { defer { first = false }; return first ? Self.bytes("HTTP/1.1 200 OK\r\n\r\n") : [UInt8](repeating: 0x30, count: 65_536) }
        }
        defer { endless.stop() }
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: 20))
        let outcome = await fetcher.fetch(FetchRequest(url: "http://127.0.0.1:\(endless.port)/issuer.cer", purpose: .caIssuers))
        guard case .refused(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.contains("65536-byte cap for ca_issuers"), reason)
        XCTAssertLessThan(endless.bytesTaken, 16 * 1_048_576, "the client stops reading soon after the cap")
    }
}
