import Foundation
import PinGuardCoreTestSupport
import PinGuardTestSupport
import XCTest
@testable import PinGuardCore

/// A certificate file of `files:` that expires with nothing newer is the critical situation of its host, on the
/// threshold relative to its lifetime, naming the file and the host; a newer file, a probed host or time left
/// make none.
final class FileExpiryTests: XCTestCase {
    typealias F = ResultFixtures
    let app = F.set("app", [("**.example.com", HostPolicy(pins: [F.leafPin]))])

    func file(_ path: String, host: String = "secret.example.com", daysLeft: Double, cert: UInt8 = 11) -> TargetResult {
        F.result(F.target(path, host: host), F.facts(host: host, leafCert: cert, leafDays: daysLeft), [app])
    }

    func testAFileWithThreeDaysLeftAndNothingNewerIsCriticalNamingTheFileAndTheHost() throws {
        let situations = FileExpiry.situations([file("/etc/ssl/secret/tls.crt", daysLeft: 3)], probedHosts: [], now: F.now)
        let s = try XCTUnwrap(situations.first)
        XCTAssertEqual(situations.count, 1)
        XCTAssertEqual(s.kind, .expiresUnrenewed)
        XCTAssertEqual(s.severity, .critical)
        XCTAssertEqual(s.target, "secret.example.com")
        XCTAssertEqual(s.file, "/etc/ssl/secret/tls.crt")
        XCTAssertEqual(s.apps, ["app/prod"])
        XCTAssertEqual(s.due, F.day(3))
        XCTAssertTrue(s.summary.contains("The certificate file /etc/ssl/secret/tls.crt for secret.example.com expires on "
                                         + String(RFC3339.format(F.day(3)).prefix(10)) + " (a 33-day certificate)"), s.summary)
        XCTAssertTrue(s.action.contains("Renew the certificate in /etc/ssl/secret/tls.crt"), s.action)
    }

    func testTheThresholdIsRelativeToTheLifetime() {
        // 30 days old with 20 left: a 50-day certificate is critical in its last 7 days only.
        XCTAssertTrue(FileExpiry.situations([file("a.pem", daysLeft: 20)], probedHosts: [], now: F.now).isEmpty)
        // 30 days old with 6 left: a 36-day certificate, inside its last 7 days.
        XCTAssertEqual(FileExpiry.situations([file("a.pem", daysLeft: 6)], probedHosts: [], now: F.now).count, 1)
    }

    func testANewerFileForTheSameHostOrAProbedHostMakesNone() {
        let old = file("old.pem", daysLeft: 3), new = file("new.pem", daysLeft: 80, cert: 21)
        XCTAssertTrue(FileExpiry.situations([old, new], probedHosts: [], now: F.now).isEmpty, "the renewal is on disk")
        XCTAssertTrue(FileExpiry.situations([old], probedHosts: ["secret.example.com"], now: F.now).isEmpty,
                      "a target probes the host: its own situation tells")
    }

    func testAFileSituationIsWrittenWithTheTargetsSituations() throws {
        var snapshot = MetricsSnapshot()
        snapshot.fileSituations = FileExpiry.situations([file("/etc/ssl/secret/tls.crt", daysLeft: 3)], probedHosts: [], now: F.now)
        let e = try Exposition(String(decoding: MetricsRenderer.render(snapshot), as: UTF8.self))
        XCTAssertEqual(e.value("pinguard_situation_info", ["target": "secret.example.com", "situation": "expires_unrenewed",
                                                           "severity": "critical"]), 1)
        XCTAssertEqual(e.value("pinguard_situation_due_timestamp_seconds", ["target": "secret.example.com"]), F.day(3).timeIntervalSince1970)
        XCTAssertEqual(e.samples("pinguard_situation_words_info", ["target": "secret.example.com"]).first?.labels["file"],
                       "/etc/ssl/secret/tls.crt")
    }
}
