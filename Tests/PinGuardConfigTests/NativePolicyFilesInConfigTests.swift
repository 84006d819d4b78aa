import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `policies:` reads every format `--policy` reads: the pin configurations apps ship are imported at load.
final class NativePolicyFilesInConfigTests: XCTestCase {
    func testAnAndroidNetworkSecurityConfigInPoliciesIsImportedAsItsOwnSet() throws {
        let folder = try TemporaryDirectory.make("pinguard-native-policies").path
        let pin = String(repeating: "A", count: 43) + "="
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
            <domain-config>
                <domain includeSubdomains="true">api.example.com</domain>
                <pin-set><pin digest="SHA-256">\(pin)</pin></pin-set>
            </domain-config>
        </network-security-config>
        """.write(toFile: "\(folder)/network_security_config.xml", atomically: true, encoding: .utf8)
        try "policies: [network_security_config.xml]\ntargets: []\n".write(toFile: "\(folder)/pinguard.yml", atomically: true, encoding: .utf8)
        let loaded = try ConfigurationLoader.load(path: "\(folder)/pinguard.yml")
        XCTAssertEqual(loaded.policySets.map(\.name), ["network_security_config"])
        XCTAssertEqual(loaded.policySets.first?.client, .android)
        XCTAssertEqual(loaded.policySets.first?.environments.values.first?.rules.first?.policy.pins.map(\.hash), [pin])
    }

    func testANativeFileThatDoesNotReadNamesItsFormat() throws {
        let folder = try TemporaryDirectory.make("pinguard-native-policies").path
        try "<network-security-config><domain-config>".write(toFile: "\(folder)/nsc.xml", atomically: true, encoding: .utf8)
        try "policies: [nsc.xml]\ntargets: []\n".write(toFile: "\(folder)/pinguard.yml", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigurationLoader.load(path: "\(folder)/pinguard.yml")) { error in
            XCTAssertTrue("\(error)".contains("nsc.xml") && "\(error)".contains("android-nsc"), "\(error)")
        }
    }
}
