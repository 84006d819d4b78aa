import Foundation
import PinGuardTestSupport
import XCTest

/// `plan --policy` and `probe --policy` take the files apps ship (an Info.plist, a network security config) as
/// `lint` and `import` read them, imported on the fly with the findings printed; `import` names the format
/// itself when `--input-format` is left out.
final class CLINativePolicyFilesTests: XCTestCase {
    /// An Info.plist whose TrustKit configuration pins the `valid` leaf key and the `backup` key.
    private func infoPlist(in dir: URL) throws -> String {
        let pins = try PKIPins.shared()
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
          <key>TSKConfiguration</key><dict>
            <key>TSKPinnedDomains</key><dict>
              <key>pinguard.test</key><dict>
                <key>TSKIncludeSubdomains</key><true/>
                <key>TSKPublicKeyHashes</key><array>
                  <string>\(pins.leaf("valid"))</string><string>\(pins.leaf("backup"))</string>
                </array>
              </dict>
            </dict>
          </dict>
        </dict></plist>
        """
        let path = dir.appendingPathComponent("Info.plist").path
        try plist.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func nsc(in dir: URL) throws -> String {
        let pins = try PKIPins.shared()
        let xml = """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
          <domain-config>
            <domain includeSubdomains="true">pinguard.test</domain>
            <pin-set><pin digest="SHA-256">\(pins.intermediate)</pin></pin-set>
          </domain-config>
        </network-security-config>
        """
        let path = dir.appendingPathComponent("network_security_config.xml").path
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testPlanJudgesACandidateByTheInfoPlistAndTheNetworkSecurityConfigAnAppShips() throws {
        let pki = try TestPKI.shared()
        let dir = try TemporaryDirectory.make("pinguard-native-policy")
        let r = try runPinguard(args: ["plan", "--chain", pki.chain("rotated"), "--host", "rotated.pinguard.test",
                                      "--policy", try infoPlist(in: dir), "--policy", try nsc(in: dir),
                                      "--ca-file", pki.caBundleBothRoots, "--json"])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertFalse(r.stderr.contains("expected a mapping"), r.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        let list = try XCTUnwrap(object["verdicts"] as? [[String: Any]])
        let verdicts = Dictionary(list.map { (($0["policy_set"] as? String) ?? "?", $0["verdict"] as? String ?? "?") },
                                  uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(verdicts["Info"], "reject", "the rotated key is not one the plist pins")
        XCTAssertEqual(verdicts["network_security_config"], "accept", "the Android app pins the intermediate")
        XCTAssertTrue(r.stderr.contains("network_security_config.xml:2: info: no <certificateTransparency> in <base-config>"),
                      "the importers' findings are printed: \(r.stderr)")
    }

    func testAPolicyFileThatDoesNotImportNamesTheFileAndTheFormat() throws {
        let pki = try TestPKI.shared()
        let dir = try TemporaryDirectory.make("pinguard-native-policy")
        let path = dir.appendingPathComponent("network_security_config.xml").path
        try "<network-security-config><domain-config>".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try runPinguard(args: ["plan", "--chain", pki.chain("valid"), "--host", "valid.pinguard.test",
                                      "--policy", path, "--ca-file", pki.caBundleBothRoots])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("read as android-nsc"), r.stderr)
    }

    func testImportReadsTheTargetSDKFromTheGradleFile() throws {
        let dir = try TemporaryDirectory.make("pinguard-native-policy")
        let gradle = dir.appendingPathComponent("build.gradle.kts").path
        try "android {\n    defaultConfig {\n        targetSdk = 37\n    }\n}\n".write(toFile: gradle, atomically: true, encoding: .utf8)
        let r = try runPinguard(args: ["import", "--input-format", "android-nsc", "--manifest", gradle, try nsc(in: dir)])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(r.stderr.contains("build.gradle.kts:3: the app targets API level 37"), r.stderr)
        XCTAssertTrue(r.stdout.contains("\ncertificate_transparency: required\n"), r.stdout)
        let unread = dir.appendingPathComponent("AndroidManifest.xml").path
        try "<manifest/>\n".write(toFile: unread, atomically: true, encoding: .utf8)
        let refused = try runPinguard(args: ["import", "--manifest", unread, try nsc(in: dir)])
        XCTAssertEqual(refused.status, 2, "\(refused)")
        XCTAssertTrue(refused.stderr.contains("give the API level with --target-sdk N"), refused.stderr)
    }
}
