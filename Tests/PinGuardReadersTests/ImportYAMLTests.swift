import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// The emitted YAML reads back as the same policy set whatever the names look like.
final class ImportYAMLTests: XCTestCase {
    let h = ImportTestSupport.h

    func testAwkwardNamesAreQuoted() throws {
        let header = "Host: api.example.com\nPublic-Key-Pins: pin-sha256=\"\(h[0])\"; pin-sha256=\"\(h[1])\"; max-age=60\n"
        for (name, env) in [("my app: v2", "prod eu"), ("true", "null"), ("2024", "#1"), ("ünïcode \"q\" \\", "x\ty")] {
            let r = try ImportTestSupport.run(.hpkp, header, name: name, environment: env)
            ImportTestSupport.assertRoundTrip(r)
            let parsed = try PolicyParser.parse(r.yaml, file: "x.yml")
            XCTAssertEqual(parsed.name, name)
            XCTAssertEqual(Array(parsed.environments.keys), [env])
        }
    }

    func testEmptyNameOrEnvironmentIsRefused() {
        let header = "Host: api.example.com\nPublic-Key-Pins: pin-sha256=\"\(h[0])\"; pin-sha256=\"\(h[1])\"; max-age=60\n"
        XCTAssertThrowsError(try ImportTestSupport.run(.hpkp, header, name: " "))
        XCTAssertThrowsError(try ImportTestSupport.run(.hpkp, header, environment: ""))
    }

    func testFindingsAreListedInTheHeaderAsComments() throws {
        let r = try ImportTestSupport.run(.hpkp, "Host: a.example.com\nPublic-Key-Pins: pin-sha256=\"\(h[0])\"; pin-sha256=\"\(h[1])\"; max-age=60; x\n")
        XCTAssertTrue(r.yaml.contains("# Findings:\n#   input:2: info: unknown directive x ignored, as UAs do\n"), r.yaml)
    }
}
