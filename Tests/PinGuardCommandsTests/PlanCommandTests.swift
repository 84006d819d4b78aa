import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `plan` in-process on real chains made at test time: which shipped apps would reject a candidate before it
/// is deployed, whether they keep a pin to rotate to, and the report in each format.
final class PlanCommandTests: XCTestCase {
    struct Apps {
        let dir: URL
        let ios: String
        let android: String
    }

    /// Two apps: `ios-app` pins the `valid` key with a backup on the `backup` key; `android-app` pins the
    /// test intermediate CA (any leaf it issues) and nothing else.
    func apps() throws -> Apps {
        let dir = try TemporaryDirectory.make("pinguard-plan")
        let ios = try PolicyYAML.write("version: \"5.2\"\n" + PolicyYAML.policySet(name: "ios-app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [.spki(try PKIPins.shared().leaf("valid")), .spki(try PKIPins.shared().leaf("backup"), role: "backup")]),
        ]), to: dir, as: "ios.yml")
        let android = try PolicyYAML.write(PolicyYAML.policySet(name: "android-app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [PinSpec(type: "ca", hash: try PKIPins.shared().intermediate)]),
        ]), to: dir, as: "android.yml")
        return Apps(dir: dir, ios: ios, android: android)
    }

    func plan(_ hosts: [String], _ configure: (inout PlanCommand.Options) -> Void) -> CommandOutcome {
        var options = PlanCommand.Options(hosts: hosts, toolVersion: "9.9.9-test", now: Date())
        configure(&options)
        return PlanCommand.run(options)
    }

    /// `chain` for `host` judged by both apps, trusting both test roots, as JSON.
    func plan(_ chain: String, host: String, _ apps: Apps, at: Date? = nil) throws -> CommandOutcome {
        let pki = try TestPKI.shared()
        return plan([host]) {
            $0.chains = [chain]
            $0.policies = [apps.ios, apps.android]
            $0.caFile = pki.caBundleBothRoots
            $0.format = .json
            $0.at = at
        }
    }

    func verdicts(_ r: CommandOutcome) throws -> [String: [String: Any]] {
        let object = try XCTUnwrap(try r.json() as? [String: Any], r.stdout)
        let list = try XCTUnwrap(object["verdicts"] as? [[String: Any]])
        return Dictionary(list.map { (($0["policy_set"] as? String) ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
    }

    func testAKeyNoShippedPinCoversIsRejectedAndTheAppIsNamed() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let r = try plan(pki.chain("rotated"), host: "rotated.pinguard.test", apps)
        XCTAssertEqual(r.status, 1, r.description)
        let v = try verdicts(r)
        XCTAssertEqual(v["ios-app"]?["verdict"] as? String, "reject")
        XCTAssertEqual(v["ios-app"]?["reason"] as? String, "pin_mismatch")
        XCTAssertEqual(v["ios-app"]?["version"] as? String, "5.2")
        XCTAssertEqual(v["android-app"]?["verdict"] as? String, "accept", "the CA pin still matches the same intermediate")
        // The candidate's own next renewal: a new key (not known otherwise) under the same intermediate.
        let object = try XCTUnwrap(try r.json() as? [String: Any])
        let candidate = try XCTUnwrap((object["candidates"] as? [[String: Any]])?.first)
        let forecast = try XCTUnwrap(candidate["forecast"] as? [String: Any], "\(candidate)")
        XCTAssertEqual(forecast["key"] as? String, "unknown")
        XCTAssertEqual(forecast["issuer_basis"] as? String, "current")
        let sets = Dictionary(((forecast["sets"] as? [[String: Any]]) ?? []).map { (($0["policy_set"] as? String) ?? "?", $0) },
                              uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(sets["ios-app"]?["reject_ratio"] as? Double, 1, "ios-app pins leaf keys: a new key breaks it")
        XCTAssertEqual(sets["android-app"]?["reject_ratio"] as? Double, 0, "android-app pins the intermediate, which stays")

        let table = plan(["rotated.pinguard.test"]) { $0.chains = [pki.chain("rotated")]; $0.policies = [apps.ios]; $0.caFile = pki.caBundle }
        XCTAssertEqual(table.status, 1)
        XCTAssertTrue(table.stdout.contains("1 of 1 decisions reject the candidate: ios-app"), table.stdout)
    }

    func testWithAConfigItsTrustCAFileIsTheTrustStore() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let config = try PolicyYAML.write("""
        trust: {ca_file: "\(pki.caBundle)"}
        policies: ["\(apps.ios)", "\(apps.android)"]

        """, to: apps.dir, as: "pinguard.yml")
        let r = plan(["valid.pinguard.test"]) { $0.chains = [pki.chain("valid")]; $0.config = config; $0.format = .json }
        XCTAssertEqual(r.status, 0, "the config's CA verifies the test chain: \(r)")
        XCTAssertEqual(try verdicts(r)["ios-app"]?["reason"] as? String, "pin_match")
        XCTAssertTrue(r.stderrText.contains("names no state file, so served chains do not count against reserve pins"), r.stderrText)
    }

    func testAKeyCoveredOnlyByABackupPinIsAcceptedAndTheReserveIsReported() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let r = try plan(pki.chain("backup"), host: "backup.pinguard.test", apps)
        XCTAssertEqual(r.status, 0, r.description)
        let ios = try XCTUnwrap(try verdicts(r)["ios-app"])
        XCTAssertEqual(ios["verdict"] as? String, "accept")
        let matched = try XCTUnwrap(ios["matched_pins"] as? [[String: Any]])
        XCTAssertEqual(matched.map { $0["role"] as? String }, ["backup"], "only the backup pin matches the candidate")
        XCTAssertEqual(ios["reserve_pins"] as? [String], [try PKIPins.shared().leaf("valid")], "the old primary is the only reserve left")

        // An app whose only pin is the candidate's key accepts it but keeps nothing to rotate to.
        let only = try PolicyYAML.write(PolicyYAML.policySet(name: "only-app", rules: [
            HostPolicySpec(pattern: "backup.pinguard.test", pins: [.spki(try PKIPins.shared().leaf("backup"))]),
        ]), to: apps.dir, as: "only.yml")
        let g = plan(["backup.pinguard.test"]) { $0.chains = [pki.chain("backup")]; $0.policies = [only]; $0.caFile = pki.caBundle; $0.format = .github }
        XCTAssertEqual(g.status, 0, g.description)
        XCTAssertTrue(g.stdout.hasPrefix("::warning file=\(only),line="), g.stdout)
        XCTAssertTrue(g.stdout.contains("has no pin left that the candidate does not use"), g.stdout)
    }

    func testACAChangeIsRejectedByTheCAPinningAppAndTheSARIFLogNamesItsFile() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let r = try plan(pki.chain("otherca"), host: "otherca.pinguard.test", apps)
        XCTAssertEqual(r.status, 1, r.description)
        let v = try verdicts(r)
        XCTAssertEqual(v["android-app"]?["verdict"] as? String, "reject", "the new CA is not the pinned intermediate")
        XCTAssertEqual(v["ios-app"]?["verdict"] as? String, "reject")

        let sarif = plan(["otherca.pinguard.test"]) {
            $0.chains = [pki.chain("otherca")]; $0.policies = [apps.android]; $0.caFile = pki.caBundleBothRoots; $0.format = .sarif
        }
        XCTAssertEqual(sarif.status, 1)
        let log = try XCTUnwrap(try sarif.json() as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        XCTAssertEqual(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["version"] as? String, "9.9.9-test")
        let result = try XCTUnwrap((run["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(result["ruleId"] as? String, "pin-plan/reject")
        let location = try XCTUnwrap((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        XCTAssertEqual((location["artifactLocation"] as? [String: Any])?["uri"] as? String, apps.android)
    }

    func testAtADateAfterTheCandidateExpiresTrustFails() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let now = try plan(pki.chain("valid"), host: "valid.pinguard.test", apps)
        XCTAssertEqual(now.status, 0, now.description)
        let later = try plan(pki.chain("valid"), host: "valid.pinguard.test", apps, at: RFC3339.parse("2090-01-01T00:00:00Z"))
        XCTAssertEqual(later.status, 1, later.description)
        XCTAssertEqual(try verdicts(later)["ios-app"]?["reason"] as? String, "system_trust_failed")
        XCTAssertEqual((try later.json() as? [String: Any])?["at"] as? String, "2090-01-01T00:00:00Z")
    }

    func testACandidateKeyOrCSRIsJudgedByItsSPKI() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let csr = apps.dir.appendingPathComponent("rotated.csr").path
        let made = try CommandRunner.run(OpenSSLTool.path, ["req", "-new", "-key", pki.key("rotated"), "-subj", "/CN=rotated.pinguard.test",
                                                            "-out", csr])
        XCTAssertEqual(made.status, 0, "\(made)")
        for input in [pki.key("rotated"), csr] {
            let r = plan(["rotated.pinguard.test"]) { $0.key = input; $0.chains = [pki.intermediate]; $0.policies = [apps.ios, apps.android]; $0.format = .json }
            XCTAssertEqual(r.status, 1, "\(input): \(r)")
            let v = try verdicts(r)
            XCTAssertEqual(v["ios-app"]?["reason"] as? String, "pin_mismatch", input)
            XCTAssertEqual(v["android-app"]?["verdict"] as? String, "accept", "the CA pin matches the issuing intermediate: \(input)")
            XCTAssertTrue(r.stderrText.contains("trust assumed"), r.stderrText)
        }
        let valid = plan(["valid.pinguard.test"]) { $0.key = pki.key("valid"); $0.policies = [apps.ios] }
        XCTAssertEqual(valid.status, 0, valid.description)
        let notKey = plan(["valid.pinguard.test"]) { $0.key = apps.ios; $0.policies = [apps.ios] }
        XCTAssertEqual(notKey.status, 2, notKey.description)
        XCTAssertTrue(notKey.stderrText.contains("not a PEM public key, private key or certificate request"), notKey.stderrText)
    }

    func testBadInputIsStatusTwoWithTheCause() throws {
        let apps = try apps()
        let missing = plan(["a.pinguard.test"]) { $0.chains = ["/nonexistent.pem"]; $0.policies = [apps.ios] }
        XCTAssertEqual(missing.status, 2, missing.description)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertTrue(missing.stderrText.contains("/nonexistent.pem: cannot read the file"), missing.stderrText)
        let notCert = plan(["a.pinguard.test"]) { $0.chains = [apps.ios]; $0.policies = [apps.ios] }
        XCTAssertEqual(notCert.status, 2, notCert.description)
        XCTAssertTrue(notCert.stderrText.contains("not a PEM bundle or a DER certificate"), notCert.stderrText)
    }
}
