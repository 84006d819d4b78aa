import Foundation
import PinGuardTestSupport
import XCTest

/// Every input a fuzzer crashed a reader with, and small inputs of the shapes that crashed one (chained constants,
/// deep nesting), are kept in `fuzz/seeds/<reader>/`: the command that reads it must end with exit 0, 1 or 2 and
/// messages without control characters, never a signal.
final class CLIFuzzSeedsTests: XCTestCase {
    /// The command line that feeds `file` to reader `reader`.
    private func command(reader: String, file: String) -> [String]? {
        switch reader {
        case "config": return ["check-config", file]
        case "policy": return ["lint", file]
        case "pem": return ["pin", file]
        case "hpkp": return ["import", "--format", "hpkp", "--name", "fuzz.example.com", file]
        case "trustkit", "nspinneddomains", "android-nsc", "okhttp": return ["import", "--format", reader, file]
        case "defines":
            return ["import", "--format", "okhttp", Repository.root.appendingPathComponent("policies/sources/ApiClient.kt").path, "--defines", file]
        case "app-manifest":
            // An Android build file with Android's configuration, any other with an iOS app's Info.plist.
            let android = file.contains("gradle") || file.contains("AndroidManifest")
            let pinned = android ? "policies/sources/network_security_config.xml" : "policies/sources/nspinneddomains-Info.plist"
            return ["import", "--format", android ? "android-nsc" : "nspinneddomains",
                    Repository.root.appendingPathComponent(pinned).path, "--manifest", file]
        default: return nil
        }
    }

    /// Readers only the running service uses (a /probe query string, a web configuration re-read per request, a
    /// CT log list, a server's SCT list, an ACME server's answers, a downloaded CRL): their seeds are replayed by the
    /// fuzz targets, and their refusals tested by ProbeRequestAdmissionTests, WebConfigParserTests,
    /// CTLogListReaderTests, SCTExtensionListTests, RenewalInfoReaderTests and CRLReaderTests.
    private static let serviceOnlyReaders: Set<String> = ["probe-target", "webconfig", "ct-log-list", "sct-list", "renewal-info", "crl"]

    func testEveryCrashSeedEndsWithAnExitStatus() throws {
        let seeds = Repository.root.appendingPathComponent("fuzz/seeds")
        let readers = try FileManager.default.contentsOfDirectory(atPath: seeds.path).sorted()
        XCTAssertFalse(readers.isEmpty, "no seed folders in \(seeds.path)")
        var count = 0
        for reader in readers where !Self.serviceOnlyReaders.contains(reader) {
            let folder = seeds.appendingPathComponent(reader)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let file = folder.appendingPathComponent(name).path
                let args = try XCTUnwrap(command(reader: reader, file: file), "no command for reader \(reader)")
                let r = try runPinguard(args: args, timeout: 20)
                count += 1
                XCTAssertFalse(r.timedOut, "\(reader)/\(name): \(r)")
                XCTAssertTrue([0, 1, 2].contains(r.status), "\(reader)/\(name) ended with \(r.status):\n\(r.stderr.prefix(2_000))")
                let controls = r.stderr.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
                XCTAssertTrue(controls.isEmpty, "\(reader)/\(name): control characters reach the terminal")
            }
        }
        XCTAssertGreaterThan(count, 0)
    }
}
