import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// Android applies `<certificateTransparency>` per domain: a `<domain-config>`'s own setting covers its domains
/// and nested `<domain-config>`s, `<base-config>`'s the rest, and without either the platform's default, which
/// Android 17 turns on for apps that target API level 37. Each rule is judged under the requirement of its domain.
final class ImportAndroidCTPerDomainTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func nsc(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<network-security-config>\n\(body)\n</network-security-config>\n"
    }

    var pinSet: String { "<pin-set><pin digest=\"SHA-256\">\(h[0])</pin><pin digest=\"SHA-256\">\(h[1])</pin></pin-set>" }

    var perDomain: String {
        nsc("""
        <domain-config>
            <domain>pay.example.com</domain>
            <certificateTransparency enabled="true"/>
            \(pinSet)
            <domain-config>
                <domain>nested.pay.example.com</domain>
            </domain-config>
        </domain-config>
        <domain-config>
            <domain>www.example.com</domain>
            \(pinSet)
        </domain-config>
        """)
    }

    /// Facts of `host` whose chain is trusted but whose Android CT judgement fails (no SCTs).
    func withoutSCTs(_ host: String) -> ProbeFacts {
        var f = S.facts(host: host, leaf: h[0], intermediate: h[2])
        f.ct = CTObservation(collected: true, publiclyAnchored: true,
                             judgements: [.android: CTJudgement(compliant: false, reason: "no SCTs")])
        return f
    }

    func testADomainConfigTurningCTOnHoldsItsDomainsAndNestedOnesToCT() throws {
        let r = try S.run(.androidNSC, perDomain)
        XCTAssertEqual(r.policySet.certificateTransparency, .off)
        XCTAssertEqual(S.rule(r, "pay.example.com")?.policy.certificateTransparency, .required)
        XCTAssertEqual(S.rule(r, "nested.pay.example.com")?.policy.certificateTransparency, .required)
        XCTAssertNil(S.rule(r, "www.example.com")?.policy.certificateTransparency)
        XCTAssertFalse(r.findings.contains { $0.severity == .warning }, "\(r.findings)")
        XCTAssertTrue(r.yaml.contains("certificate_transparency: required"), r.yaml)
        S.assertRoundTrip(r)

        XCTAssertEqual(S.evaluate(r, withoutSCTs("pay.example.com"))?.reason, .ctNotCompliant)
        XCTAssertEqual(S.evaluate(r, withoutSCTs("nested.pay.example.com"))?.reason, .ctNotCompliant)
        XCTAssertEqual(S.evaluate(r, withoutSCTs("www.example.com"))?.reason, .pinMatch)
    }

    func testADomainConfigTurningCTOffIsExemptFromBaseConfig() throws {
        let r = try S.run(.androidNSC, nsc("""
        <base-config><certificateTransparency enabled="true"/></base-config>
        <domain-config>
            <domain>legacy.example.com</domain>
            <certificateTransparency enabled="false"/>
            \(pinSet)
        </domain-config>
        <domain-config>
            <domain>api.example.com</domain>
            \(pinSet)
        </domain-config>
        """))
        XCTAssertEqual(r.policySet.certificateTransparency, .required)
        XCTAssertEqual(S.rule(r, "legacy.example.com")?.policy.certificateTransparency, .off)
        XCTAssertEqual(S.evaluate(r, withoutSCTs("legacy.example.com"))?.reason, .pinMatch)
        XCTAssertEqual(S.evaluate(r, withoutSCTs("api.example.com"))?.reason, .ctNotCompliant)
    }

    func testARuleRequirementMakesTheSetCheckCT() throws {
        let r = try S.run(.androidNSC, perDomain)
        XCTAssertNil(r.policySet.ctPolicy)
        XCTAssertTrue(r.policySet.checksCT)
        XCTAssertTrue(CTSettings.needed(by: [r.policySet]), "SCTs are collected for a set whose only CT is a rule's")
    }

    func testAnAppTargetingAPILevel37ChecksCTByDefault() throws {
        let text = nsc("<domain-config><domain>api.example.com</domain>\(pinSet)</domain-config>")
        func run(_ sdk: Int?) throws -> ImportResult {
            try PolicyImporter.importPolicy(format: .androidNSC, contents: Array(text.utf8), file: "nsc.xml", name: "app",
                                            environment: "prod", targetSDK: sdk)
        }
        XCTAssertEqual(try run(37).policySet.certificateTransparency, .required)
        XCTAssertEqual(try run(36).policySet.certificateTransparency, .off)
        let unknown = try run(nil)
        XCTAssertEqual(unknown.policySet.certificateTransparency, .off)
        XCTAssertEqual(S.findings(unknown, containing: "give --target-sdk N").count, 1)
        XCTAssertEqual(S.findings(try run(37), containing: "targets API level 37").count, 1)
        let optedOut = nsc("<base-config><certificateTransparency enabled=\"false\"/></base-config>"
                           + "<domain-config><domain>api.example.com</domain>\(pinSet)</domain-config>")
        let r = try PolicyImporter.importPolicy(format: .androidNSC, contents: Array(optedOut.utf8), file: "nsc.xml",
                                                name: "app", environment: "prod", targetSDK: 37)
        XCTAssertEqual(r.policySet.certificateTransparency, .off, "the file's own setting wins over the default")
    }

    func testTheTargetSDKIsReadFromTheManifestOrGradleFile() throws {
        func sdk(_ text: String) throws -> Int { try AndroidTargetSDK.read(Array(text.utf8), file: "f").sdk }
        XCTAssertEqual(try sdk("<manifest>\n  <uses-sdk android:minSdkVersion=\"24\" android:targetSdkVersion=\"37\"/>\n</manifest>"), 37)
        XCTAssertEqual(try sdk("android {\n    defaultConfig {\n        targetSdk = 36\n    }\n}"), 36)
        XCTAssertEqual(try sdk("android {\n  defaultConfig {\n    // targetSdk 30\n    targetSdkVersion 37\n  }\n}"), 37)
        XCTAssertEqual(try sdk("defaultConfig { targetSdkVersion(35) }"), 35)
        XCTAssertThrowsError(try sdk("targetSdk = libs.versions.target.get().toInt()")) {
            XCTAssertTrue("\($0)".contains("give it with --target-sdk N"), "\($0)")
            XCTAssertEqual(($0 as? ImportError)?.line, 1)
        }
        XCTAssertThrowsError(try sdk("android { compileSdk = 37 }")) {
            XCTAssertTrue("\($0)".contains("no targetSdkVersion"), "\($0)")
        }
    }
}
