import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardServiceTestSupport
import XCTest

/// What `GET /probe` admits before anything is resolved or dialled: the name matched by `probe_allow` is
/// byte for byte the name probed, ports are listed, and one client address holds only its share of the
/// request slots. In-process, on a scripted prober: a refused request never reaches it.
final class ProbeRequestAdmissionTests: XCTestCase {
    private func service(ports: String = "") throws -> InProcessService {
        let config = InProcessService.config(hosts: []).replacingOccurrences(of: "targets:\n", with: "targets: []\n") + "probe_allow: {hosts: [\"**.pg.test\"]\(ports)}\n"
        let s = try InProcessService(config: config, policies: [
            "app.yml": InProcessService.policy(name: "app", pattern: "**.pg.test", pins: [InProcessService.pin(byte: 1)]),
        ])
        s.serve("good.pg.test", key: InProcessService.pin(byte: 1))
        return s
    }

    private func ask(_ s: InProcessService, _ query: String, client: String = "192.0.2.1") async throws -> (Int, String) {
        try await Self.ask(s, query, client: client)
    }

    private static func ask(_ s: InProcessService, _ query: String, client: String) async throws -> (Int, String) {
        var q = try XCTUnwrap(ProbeQuery(uri: "/probe?" + query), query)
        q.client = client
        switch await s.runtime.probe(q) {
        case .metrics(let chunks): return (200, String(decoding: chunks.joined(), as: UTF8.self))
        case .refused(let status, let reason): return (status, reason)
        case .log(let text): return (200, text)
        }
    }

    func testPercentEncodedNULBeforeAnAllowedSuffixIsRefusedBeforeAnyLookup() async throws {
        let s = try service()
        let (status, reason) = try await ask(s, "target=outside.example%00.pg.test:443")
        XCTAssertEqual(status, 400, reason)
        XCTAssertTrue(reason.contains("is not a host name or address: control byte or space 0x00"), reason)
        XCTAssertFalse(reason.contains("\u{0}"), "the NUL is escaped in the answer")
        XCTAssertTrue(s.executor.probes.isEmpty, "nothing was resolved or dialled")
    }

    func testEveryMalformedNameIsRefusedWith400() async throws {
        let s = try service()
        let refused = ["outside.example%0a.pg.test", "a%01b.pg.test", "user%40evil.example%23.pg.test", "a..pg.test",
                       "a.pg.test..", ".a.pg.test", "%C3%A9t%C3%A9.pg.test", "a%20b.pg.test", "-a.pg.test", "a-.pg.test",
                       "127.1", "0x7f000001", "[fe80::1%25lo]", String(repeating: "a", count: 64) + ".pg.test"]
        for target in refused {
            let (status, reason) = try await ask(s, "target=\(target)")
            XCTAssertEqual(status, 400, "\(target): \(reason)")
        }
        XCTAssertTrue(s.executor.probes.isEmpty, "no refused name reached the prober")
        XCTAssertNil(ProbeQuery(uri: "/probe?target=a%zz.pg.test"), "malformed percent-encoding is not read (400)")
        XCTAssertNil(ProbeQuery(uri: "/probe?target=%FF.pg.test"), "bytes that are not UTF-8 are not read (400)")
    }

    func testAValidNameIsProbedAsMatchedWithOneTrailingDotDropped() async throws {
        let s = try service()
        let (status, body) = try await ask(s, "target=Good.PG.test.")
        XCTAssertEqual(status, 200, body)
        XCTAssertEqual(s.executor.probes.map(\.host), ["good.pg.test"])
        let (idna, _) = try await ask(s, "target=xn--tt-bja.pg.test")
        XCTAssertEqual(idna, 200, "an IDNA-encoded name is a host name")
    }

    func testPortsOutsideTheAllowlistAreRefused() async throws {
        let s = try service()
        var (status, reason) = try await ask(s, "target=good.pg.test:22")
        XCTAssertEqual(status, 403, reason)
        XCTAssertEqual(reason, "port 22 is not allowed by probe_allow.ports")
        let ranged = try service(ports: ", ports: [443, \"8000-8999\"]")
        (status, reason) = try await ask(ranged, "target=good.pg.test:8443")
        XCTAssertEqual(status, 200, reason)
        (status, _) = try await ask(ranged, "target=good.pg.test:9000")
        XCTAssertEqual(status, 403)
    }

    func testOneClientHoldsOnlyItsShareOfTheSlotsWhileOthersAreServed() async throws {
        let s = try service()
        s.executor.hold("good.pg.test")
        var held: [Task<(Int, String), Error>] = []
        for _ in 0..<4 { held.append(Task { @Sendable in try await ProbeRequestAdmissionTests.ask(s, "target=good.pg.test", client: "198.51.100.7") }) }
        try await s.executor.waitForProbes(4)
        let (status, reason) = try await ask(s, "target=good.pg.test", client: "198.51.100.7")
        XCTAssertEqual(status, 503, "a fifth request of the same address waits for none of the others' slots: \(reason)")
        let other = Task { @Sendable in try await ProbeRequestAdmissionTests.ask(s, "target=good.pg.test", client: "203.0.113.9") }
        try await s.executor.waitForProbes(5)
        s.executor.release("good.pg.test")
        let (otherStatus, _) = try await other.value
        XCTAssertEqual(otherStatus, 200, "another address still gets a slot")
        for t in held {
            let (heldStatus, _) = try await t.value
            XCTAssertEqual(heldStatus, 200)
        }
    }

    func testDebugAnswersTheProbesLog() async throws {
        let s = try service()
        let (status, log) = try await ask(s, "target=good.pg.test&debug=true")
        XCTAssertEqual(status, 200)
        XCTAssertTrue(log.hasPrefix("target good.pg.test:443 (good.pg.test:443), environment prod\n"), log)
        XCTAssertTrue(log.contains("app/prod: ACCEPT (pin_match); matched"), log)
        XCTAssertFalse(log.contains("pinguard_policy_accept"), "the log, not the series")
    }

    func testDebugDoesNotGetAroundProbeAllow() async throws {
        let s = try service()
        for query in ["target=outside.example&debug=true", "debug=true&target=outside.example", "target=good.pg.test:8443&debug=true",
                      "target=outside.example%00.pg.test&debug=true"] {
            let (status, body) = try await ask(s, query)
            XCTAssertNotEqual(status, 200, "\(query): \(body)")
            XCTAssertFalse(body.contains("target outside.example"), "no probe log for a refused name: \(body)")
        }
        XCTAssertEqual(s.executor.probes.count, 0, "nothing was probed")
    }

    func testRepeatedPolicySetsAreAnsweredOnce() async throws {
        let q = try XCTUnwrap(ProbeQuery(uri: "/probe?target=a.pg.test&policy_set=app,app&policy_set=app&policy_set=x,app"))
        XCTAssertEqual(q.policySets, ["app", "x"])
        let s = try service()
        let (status, body) = try await ask(s, "target=good.pg.test&" + Array(repeating: "policy_set=app", count: 500).joined(separator: "&"))
        XCTAssertEqual(status, 200, body)
        XCTAssertEqual(body.components(separatedBy: "pinguard_policy_accept{").count - 1, 1, "one series per set")
    }
}
