import Foundation
import PinGuardCommands
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// `import` in-process: values supplied from outside the file, bundled trust anchors, configurations that pin
/// nothing, the format named when it is left out, the target SDK read from a build file, and the last line
/// that says what went wrong.
final class ImportCommandTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory.make("pinguard-import")
    }

    func importing(_ file: String, _ configure: (inout ImportCommand.Options) -> Void = { _ in }) -> CommandOutcome {
        var options = ImportCommand.Options(file: file)
        configure(&options)
        return ImportCommand.run(options)
    }

    /// A network security config pinning one intermediate key for `**.pinguard.test`.
    func nsc() throws -> String {
        try PolicyYAML.write("""
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
          <domain-config>
            <domain includeSubdomains="true">pinguard.test</domain>
            <pin-set><pin digest="SHA-256">K7rZOrXHknnsEhUH8nLL4MZkejquUuIvOIr6tCa0rbo=</pin></pin-set>
          </domain-config>
        </network-security-config>
        """, to: dir, as: "network_security_config.xml")
    }

    func testDefinesSupplyValuesTheSourceDoesNotDefineAndADefineWinsOverTheFile() throws {
        let pins = ["V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=", "kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="]
        let source = try PolicyYAML.write("""
        val pinner = CertificatePinner.Builder()
            .add(BuildConfig.API_HOST, BuildConfig.PIN_PRIMARY, "sha256/\(pins[1])")
            .build()
        """, to: dir, as: "Api.kt")
        let missing = importing(source) { $0.format = .okhttp }
        XCTAssertEqual(missing.status, 2, missing.description)
        XCTAssertTrue(missing.stderrText.contains("BuildConfig.API_HOST unresolved"), missing.stderrText)
        let file = try PolicyYAML.write("# from the Gradle build\nBuildConfig.API_HOST=api.example.com\nBuildConfig.PIN_PRIMARY=x\n\n",
                                        to: dir, as: "buildconfig.env")
        let r = importing(source) { $0.format = .okhttp; $0.defines = file; $0.define = ["BuildConfig.PIN_PRIMARY=sha256/\(pins[0])"] }
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertTrue(r.stdout.contains("- pattern: api.example.com"), r.stdout)
        XCTAssertTrue(r.stdout.contains(pins[0]) && r.stdout.contains(pins[1]), r.stdout)
        let bad = importing(source) { $0.format = .okhttp; $0.define = ["NOEQUALS"] }
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.pieces, [.stderr("pinguard: --define: expected NAME=VALUE, got \"NOEQUALS\"")])
    }

    func testBundledTrustAnchorsAreImportedAsCAPinsFromTheResDirectory() throws {
        let pki = try TestPKI.shared()
        let xmlDir = dir.appendingPathComponent("res/xml"), rawDir = dir.appendingPathComponent("res/raw")
        try FileManager.default.createDirectory(at: xmlDir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: rawDir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: pki.intermediate, toPath: rawDir.appendingPathComponent("company_ca.crt").path)
        let xml = xmlDir.appendingPathComponent("network_security_config.xml").path
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
            <domain-config>
                <domain includeSubdomains="true">pinguard.test</domain>
                <trust-anchors><certificates src="@raw/company_ca"/></trust-anchors>
            </domain-config>
            <domain-config>
                <domain>other.pinguard.test</domain>
                <trust-anchors><certificates src="@raw/gone_ca"/></trust-anchors>
            </domain-config>
        </network-security-config>
        """.write(toFile: xml, atomically: true, encoding: .utf8)
        let expected = try OpenSSLTool.spkiSHA256(certificate: pki.intermediate)
        let r = importing(xml) { $0.format = .androidNSC }
        XCTAssertEqual(r.status, 1, "the missing resource is an error finding: \(r)")
        XCTAssertTrue(r.stdout.contains("- {type: ca, hash: \"\(expected)\", role: primary, scope: any}"), r.stdout)
        XCTAssertTrue(r.stderrText.contains("\(xml):9: error: @raw/gone_ca (trust anchor of other.pinguard.test) not found: no \(rawDir.path)/gone_ca.{pem,crt,cer,der}"),
                      r.stderrText)
        // Elsewhere, --res says where res/ is; without it the missing directory is named.
        let moved = dir.appendingPathComponent("nsc.xml").path
        try FileManager.default.copyItem(atPath: xml, toPath: moved)
        let lost = importing(moved) { $0.format = .androidNSC }
        XCTAssertTrue(lost.stderrText.contains("pass --res DIR"), lost.stderrText)
        let found = importing(moved) { $0.format = .androidNSC; $0.res = self.dir.appendingPathComponent("res").path }
        XCTAssertTrue(found.stdout.contains(expected), found.stdout)
    }

    func testTheTargetSDKIsReadFromTheGradleFileAndAManifestWithoutOneIsRefused() throws {
        let gradle = try PolicyYAML.write("android {\n    defaultConfig {\n        targetSdk = 37\n    }\n}\n", to: dir, as: "build.gradle.kts")
        let r = importing(try nsc()) { $0.format = .androidNSC; $0.manifest = gradle }
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertTrue(r.stderr.contains("pinguard: \(gradle):3: the app targets API level 37"), r.stderrText)
        XCTAssertTrue(r.stdout.contains("\ncertificate_transparency: required\n"), r.stdout)
        let unread = try PolicyYAML.write("<manifest/>\n", to: dir, as: "AndroidManifest.xml")
        let refused = importing(try nsc()) { $0.manifest = unread }
        XCTAssertEqual(refused.status, 2, refused.description)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertTrue(refused.stderrText.contains("give the API level with --target-sdk N"), refused.stderrText)
    }

    func testAnIOSAppsDeploymentTargetFromItsProjectOrItsBuiltInfoPlistSetsTheVersionsItsSetIsJudgedOn() throws {
        let plist = try PolicyYAML.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
          <key>api.pinguard.test</key><dict><key>NSPinnedLeafIdentities</key><array>
            <dict><key>SPKI-SHA256-BASE64</key><string>K7rZOrXHknnsEhUH8nLL4MZkejquUuIvOIr6tCa0rbo=</string></dict>
          </array></dict>
        </dict></dict></dict></plist>
        """, to: dir, as: "Info.plist")
        let project = try PolicyYAML.write("{\n\t\tIPHONEOS_DEPLOYMENT_TARGET = 15.0;\n\t\tIPHONEOS_DEPLOYMENT_TARGET = 13.0;\n}\n",
                                           to: dir, as: "project.pbxproj")
        let r = importing(plist) { $0.format = .nspinneddomains; $0.manifest = project }
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertTrue(r.stderr.contains("pinguard: \(project):3: the app runs from iOS 13.0 (client_versions \"13-\")"), r.stderrText)
        XCTAssertTrue(r.stdout.contains("\nclient: ios\nclient_versions: \"13-\"\n"), r.stdout)
        let without = importing(plist) { $0.format = .nspinneddomains }
        XCTAssertFalse(without.stdout.contains("client_versions"), without.stdout)
        let built = try PolicyYAML.write(try String(contentsOfFile: plist, encoding: .utf8)
            .replacingOccurrences(of: "<dict><key>NSAppTransportSecurity", with: "<dict><key>MinimumOSVersion</key><string>16.2</string><key>NSAppTransportSecurity"),
                                         to: dir, as: "Built-Info.plist")
        let own = importing(built) { $0.format = .nspinneddomains }
        XCTAssertEqual(own.status, 0, own.description)
        XCTAssertTrue(own.stderr.contains("pinguard: \(built):2: the app runs from iOS 16.2 (client_versions \"16-\")"), own.stderrText)
        XCTAssertTrue(own.stdout.contains("\nclient_versions: \"16-\"\n"), own.stdout)
        let unread = try PolicyYAML.write("platform :ios\n", to: dir, as: "Podfile")
        let refused = importing(plist) { $0.manifest = unread }
        XCTAssertEqual(refused.status, 2, refused.description)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertTrue(refused.stderrText.contains("\(unread): no iOS deployment target"), refused.stderrText)
    }

    func testTheFormatIsNamedWhenItIsLeftOut() throws {
        let r = importing(try nsc())
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertEqual(r.stderr.first, "pinguard: \(try nsc()): read as android-nsc")
        XCTAssertTrue(r.stdout.contains("- pattern: \"**.pinguard.test\""), r.stdout)
        let same = importing(try nsc()) { $0.format = .androidNSC }
        XCTAssertEqual(same.stdout, r.stdout)
        let unnamed = try PolicyYAML.write("nothing here\n", to: dir, as: "pins.txt")
        let refused = importing(unnamed)
        XCTAssertEqual(refused.status, 2, refused.description)
        XCTAssertTrue(refused.stderrText.contains("give --input-format"), refused.stderrText)
    }

    func testTheSetIsNamedAfterTheFileUnlessNamedAndGoesUnderTheEnvironmentGiven() throws {
        let r = importing(try nsc())
        XCTAssertTrue(r.stdout.contains("name: network_security_config\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\n  prod:\n"), r.stdout)
        let named = importing(try nsc()) { $0.name = "android-app"; $0.environment = "staging" }
        XCTAssertTrue(named.stdout.contains("name: android-app\n"), named.stdout)
        XCTAssertTrue(named.stdout.contains("\n  staging:\n"), named.stdout)
    }

    func testOutputWritesThePolicyToTheFileInsteadOfStdout() throws {
        let output = dir.appendingPathComponent("out.yml").path
        let r = importing(try nsc()) { $0.output = output }
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), importing(try nsc()).stdout)
        let unwritable = importing(try nsc()) { $0.output = self.dir.appendingPathComponent("no/such/dir/out.yml").path }
        XCTAssertEqual(unwritable.status, 2, unwritable.description)
        XCTAssertTrue(unwritable.stderr.last?.hasPrefix("pinguard: \(self.dir.path)/no/such/dir/out.yml: ") ?? false, unwritable.stderrText)
    }
}
