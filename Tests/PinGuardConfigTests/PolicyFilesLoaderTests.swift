import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// The policy files commands take, in every format `import` reads: detected per file or named, native files
/// imported with their findings, each set name used once, and a file that does not read named with its format.
final class PolicyFilesLoaderTests: XCTestCase {
    let hash = ["V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=", "kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="]

    func write(_ text: String, as name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testNativeFilesAndPoliciesLoadSideBySide() throws {
        let dir = try TemporaryDirectory.make("pinguard-policy-files")
        let plist = try write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
          <key>api.example.com</key><dict><key>NSPinnedLeafIdentities</key><array>
            <dict><key>SPKI-SHA256-BASE64</key><string>\(hash[0])</string></dict>
          </array></dict>
        </dict></dict></dict></plist>
        """, as: "Info.plist", in: dir)
        let kotlin = try write("""
        val pinner = CertificatePinner.Builder()
            .add("api.example.com", "sha256/\(hash[0])", "sha256/\(hash[1])")
            .build()
        """, as: "Pins.kt", in: dir)
        let yaml = try write("""
        name: web
        environments:
          prod:
            policies:
              - pattern: api.example.com
                policy: {pins: [{hash: "\(hash[0])"}]}
        """, as: "web.yml", in: dir)
        let loaded = try PolicyFilesLoader.load([plist, kotlin, yaml])
        XCTAssertEqual(loaded.sets.map(\.name), ["Info", "Pins", "web"])
        XCTAssertEqual(loaded.sets[0].environments["prod"]?.rules.first?.policy.pins.first?.scope, .leaf)
        XCTAssertEqual(loaded.sets[1].client, .jvm)
        XCTAssertEqual(loaded.sets[1].environments["prod"]?.rules.first?.policy.pins.map(\.hash), hash)
        XCTAssertTrue(loaded.findings.allSatisfy { $0.file == plist || $0.file == kotlin }, "\(loaded.findings)")
    }

    func testTheNamedFormatWinsOverDetection() throws {
        let dir = try TemporaryDirectory.make("pinguard-policy-files")
        let headers = try write("Host: api.example.com\nPublic-Key-Pins: pin-sha256=\"\(hash[0])\"; pin-sha256=\"\(hash[1])\"; max-age=600\n",
                                as: "pins.conf", in: dir)
        XCTAssertEqual(try PolicyFilesLoader.load([headers]).sets.first?.client, .chrome, "detected: HPKP headers")
        XCTAssertThrowsError(try PolicyFilesLoader.load([headers], format: .androidNSC)) {
            XCTAssertTrue("\($0)".contains("read as android-nsc"), "\($0)")
        }
    }

    func testASetNameUsedTwiceIsRefused() throws {
        let dir = try TemporaryDirectory.make("pinguard-policy-files")
        let sub = dir.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let text = "CertificatePinner.Builder().add(\"a.example.com\", \"sha256/\(hash[0])\", \"sha256/\(hash[1])\").build()\n"
        let a = try write(text, as: "Pins.kt", in: dir)
        let b = try write(text, as: "Pins.kt", in: sub)
        XCTAssertThrowsError(try PolicyFilesLoader.load([a, b])) {
            XCTAssertTrue("\($0)".contains("policy set name \"Pins\" is already used by \(a)"), "\($0)")
        }
    }
}
