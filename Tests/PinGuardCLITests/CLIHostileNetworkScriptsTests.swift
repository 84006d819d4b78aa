import Foundation
import PinGuardTestSupport
import XCTest

/// The network-side shell and Python reproducers of `Tests/Fixtures/repro/`, run end to end against the
/// built pinguard: names with a NUL, hosts-file lines with a NUL, malformed and oversized SCT lists, and a
/// flood of status-page requests beside a scraper.
final class CLIHostileNetworkScriptsTests: XCTestCase {
    private func run(_ name: String, _ arguments: [String] = [], privateNetwork: Bool = false,
                     environment: [String: String] = [:], timeout: Double = 120) throws -> String {
        do {
            return try HostileScript.run(name, arguments, privateNetwork: privateNetwork, environment: environment, timeout: timeout)
        } catch let error as HarnessError where error.message.hasPrefix("needs ") {
            throw XCTSkip(error.message)
        }
    }

    func testANulInAConfiguredOrFileSDNameIsRefusedBeforeAnythingIsDialled() throws {
        let out = try run("config-nul-host.sh", privateNetwork: true, timeout: 60)
        XCTAssertTrue(out.contains("check-config rc=2 (expected 2"), out)
        XCTAssertTrue(out.contains("check-config (file_sd) rc=2"), out)
        XCTAssertEqual(out.components(separatedBy: "is not a host name or address: control byte or space 0x00").count - 1, 2,
                       "check-config names the cause for host: and for the file_sd target: \(out)")
        XCTAssertFalse(out.contains("app/prod") || out.contains("ACCEPT") || out.contains("REJECT"), "nothing was judged: \(out)")
    }

    func testHostsFileLinesWithANulResolveNoFurtherThanGlibcReadsThem() throws {
        let out = try run("hosts-nul-byte.sh", privateNetwork: true, timeout: 60)
        XCTAssertEqual(out.components(separatedBy: "glibc: not found").count - 1, 2, out)
        XCTAssertFalse(out.contains("127.0.0.17") || out.contains("127.0.0.18"), "pinguard resolved what glibc does not: \(out)")
        XCTAssertTrue(out.contains("resolve hidden.test") && out.contains("resolve nul2.test"), out)
    }

    func testAMalformedSCTListLeavesEverySetItsVerdict() throws {
        guard CommandRunner.which("gcc") != nil else { throw XCTSkip("needs gcc and libssl-dev to build sctserver.c") }
        let out = try run("ct-malformed-sct-list-fails-handshake.sh", timeout: 90)
        XCTAssertEqual(out.components(separatedBy: "jvm         prod  api.pg.test  ACCEPT").count - 1, 2, out)
        XCTAssertEqual(out.components(separatedBy: "probe    ok").count - 1, 2, out)
        XCTAssertFalse(out.contains("sct list invalid") || out.contains("probe_failed") || out.contains("FAILED"), out)
    }

    func testFreshLargeSCTsOnEveryHandshakeLeaveMemoryFlat() throws {
        guard CommandRunner.which("gcc") != nil else { throw XCTSkip("needs gcc and libssl-dev to build sctserver.c") }
        let out = try run("ct-sct-cache-memory.sh", ["20"], timeout: 90)
        let rss = HostileScript.values("rss_kb", in: out), probes = HostileScript.values("probes", in: out)
        XCTAssertEqual(rss.count, 2, out)
        XCTAssertGreaterThanOrEqual(probes.last ?? 0, 200, "enough handshakes to show growth: \(out)")
        // Before: ~64 KB more per probe, never freed (several hundred probes: tens of MB).
        XCTAssertLessThan((rss.last ?? 0) - (rss.first ?? 0), 12_000, out)
        XCTAssertLessThan(rss.max() ?? 0, 200_000, out)
    }

    func testAFloodOfStatusPagesFromThreeAddressesNeverDelaysAScrape() throws {
        // Three flooding addresses, 16 connections each: before, their pages queued on the thread that
        // renders /metrics, and scrapes from a fourth address waited seconds.
        let out = try run("status-page-starves-metrics.py", ["5000", "8"],
                          environment: ["ATTACKERS": "127.0.0.9,127.0.0.10,127.0.0.11"], timeout: 150)
        let line = try XCTUnwrap(out.split(separator: "\n").first { $0.hasPrefix("/metrics from 127.0.0.1 during the flood:") }, out)
        let samples = line.split(separator: "(").dropFirst().map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        XCTAssertGreaterThanOrEqual(samples.count, 4, out)
        for s in samples {
            XCTAssertEqual(s.first, "'200'", String(line))
            let seconds = Double(String(s.dropFirst().first?.prefix { $0 != ")" } ?? "")) ?? 99
            XCTAssertLessThan(seconds, 3, "a scrape waited behind the pages (10 s before): \(String(line))")
        }
    }
}
