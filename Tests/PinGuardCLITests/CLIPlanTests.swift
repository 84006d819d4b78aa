import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// `pinguard plan` on real chains made at test time: which shipped apps would reject a candidate before it
/// is deployed, and whether they keep a pin to rotate to.
final class CLIPlanTests: XCTestCase {
    private struct Apps {
        let dir: URL
        let ios: String
        let android: String
    }

    /// Two apps: `ios-app` pins the `valid` key with a backup on the `backup` key; `android-app` pins the
    /// test intermediate CA (any leaf it issues) and nothing else.
    private func apps() throws -> Apps {
        let pins = try PKIPins.shared()
        let dir = try TemporaryDirectory.make("pinguard-plan")
        let ios = try PolicyYAML.write("version: \"5.2\"\n" + PolicyYAML.policySet(name: "ios-app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [.spki(pins.leaf("valid")), .spki(pins.leaf("backup"), role: "backup")]),
        ]), to: dir, as: "ios.yml")
        let android = try PolicyYAML.write(PolicyYAML.policySet(name: "android-app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [PinSpec(type: "ca", hash: pins.intermediate)]),
        ]), to: dir, as: "android.yml")
        return Apps(dir: dir, ios: ios, android: android)
    }

    private func plan(_ chain: String, host: String, _ apps: Apps, extra: [String] = []) throws -> CommandResult {
        let pki = try TestPKI.shared()
        return try runPinguard(args: ["plan", "--chain", chain, "--host", host, "--policy", apps.ios, "--policy", apps.android,
                                      "--ca-file", pki.caBundleBothRoots, "--json"] + extra)
    }

    private func verdicts(_ r: CommandResult) throws -> [String: [String: Any]] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        let list = try XCTUnwrap(object["verdicts"] as? [[String: Any]])
        return Dictionary(list.map { (($0["policy_set"] as? String) ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
    }

    func testAKeyNoShippedPinCoversIsRejectedAndTheAppIsNamed() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let r = try plan(pki.chain("rotated"), host: "rotated.pinguard.test", apps)
        XCTAssertEqual(r.status, 1, "\(r)")
        let v = try verdicts(r)
        XCTAssertEqual(v["ios-app"]?["verdict"] as? String, "reject")
        XCTAssertEqual(v["ios-app"]?["reason"] as? String, "pin_mismatch")
        XCTAssertEqual(v["ios-app"]?["version"] as? String, "5.2")
        XCTAssertEqual(v["android-app"]?["verdict"] as? String, "accept", "the CA pin still matches the same intermediate")
        // The candidate's own next renewal: a new key (not known otherwise) under the same intermediate.
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let candidate = try XCTUnwrap((object["candidates"] as? [[String: Any]])?.first)
        let forecast = try XCTUnwrap(candidate["forecast"] as? [String: Any], "\(candidate)")
        XCTAssertEqual(forecast["key"] as? String, "unknown")
        XCTAssertEqual(forecast["issuer_basis"] as? String, "current")
        let sets = Dictionary(((forecast["sets"] as? [[String: Any]]) ?? []).map { (($0["policy_set"] as? String) ?? "?", $0) },
                              uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(sets["ios-app"]?["reject_ratio"] as? Double, 1, "ios-app pins leaf keys: a new key breaks it")
        XCTAssertEqual(sets["android-app"]?["reject_ratio"] as? Double, 0, "android-app pins the intermediate, which stays")

        let table = try runPinguard(args: ["plan", "--chain", pki.chain("rotated"), "--host", "rotated.pinguard.test",
                                           "--policy", apps.ios, "--ca-file", pki.caBundle])
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
        let r = try runPinguard(args: ["plan", "--chain", pki.chain("valid"), "--host", "valid.pinguard.test", "--config", config, "--json"])
        XCTAssertEqual(r.status, 0, "the config's CA verifies the test chain: \(r)")
        XCTAssertEqual(try verdicts(r)["ios-app"]?["reason"] as? String, "pin_match")
    }

    func testAKeyCoveredOnlyByABackupPinIsAcceptedAndTheReserveIsReported() throws {
        let pki = try TestPKI.shared()
        let pins = try PKIPins.shared()
        let apps = try apps()
        let r = try plan(pki.chain("backup"), host: "backup.pinguard.test", apps)
        XCTAssertEqual(r.status, 0, "\(r)")
        let ios = try XCTUnwrap(try verdicts(r)["ios-app"])
        XCTAssertEqual(ios["verdict"] as? String, "accept")
        let matched = try XCTUnwrap(ios["matched_pins"] as? [[String: Any]])
        XCTAssertEqual(matched.map { $0["role"] as? String }, ["backup"], "only the backup pin matches the candidate")
        XCTAssertEqual(ios["reserve_pins"] as? [String], [pins.leaf("valid")], "the old primary is the only reserve left")

        // An app whose only pin is the candidate's key accepts it but keeps nothing to rotate to.
        let only = try PolicyYAML.write(PolicyYAML.policySet(name: "only-app", rules: [
            HostPolicySpec(pattern: "backup.pinguard.test", pins: [.spki(pins.leaf("backup"))]),
        ]), to: apps.dir, as: "only.yml")
        let g = try runPinguard(args: ["plan", "--chain", pki.chain("backup"), "--host", "backup.pinguard.test",
                                       "--policy", only, "--ca-file", pki.caBundle, "--format", "github"])
        XCTAssertEqual(g.status, 0, "\(g)")
        XCTAssertTrue(g.stdout.hasPrefix("::warning file=\(only),line="), g.stdout)
        XCTAssertTrue(g.stdout.contains("has no pin left that the candidate does not use"), g.stdout)
    }

    func testACAChangeIsRejectedByTheCAPinningApp() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let r = try plan(pki.chain("otherca"), host: "otherca.pinguard.test", apps)
        XCTAssertEqual(r.status, 1, "\(r)")
        let v = try verdicts(r)
        XCTAssertEqual(v["android-app"]?["verdict"] as? String, "reject", "the new CA is not the pinned intermediate")
        XCTAssertEqual(v["ios-app"]?["verdict"] as? String, "reject")

        let sarif = try runPinguard(args: ["plan", "--chain", pki.chain("otherca"), "--host", "otherca.pinguard.test",
                                           "--policy", apps.android, "--ca-file", pki.caBundleBothRoots, "--format", "sarif"])
        XCTAssertEqual(sarif.status, 1)
        let log = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let result = try XCTUnwrap((run["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(result["ruleId"] as? String, "pin-plan/reject")
        let location = try XCTUnwrap((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        XCTAssertEqual((location["artifactLocation"] as? [String: Any])?["uri"] as? String, apps.android)
    }

    func testAtADateAfterTheCandidateExpiresTrustFails() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let now = try plan(pki.chain("valid"), host: "valid.pinguard.test", apps)
        XCTAssertEqual(now.status, 0, "\(now)")
        let later = try plan(pki.chain("valid"), host: "valid.pinguard.test", apps, extra: ["--at", "2090-01-01"])
        XCTAssertEqual(later.status, 1, "\(later)")
        XCTAssertEqual(try verdicts(later)["ios-app"]?["reason"] as? String, "system_trust_failed")
        let object = try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["at"] as? String, "2090-01-01T00:00:00Z")
    }

    func testACandidateKeyOrCSRIsJudgedByItsSPKI() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let csr = apps.dir.appendingPathComponent("rotated.csr").path
        let made = try CommandRunner.run(OpenSSLTool.path, ["req", "-new", "-key", pki.key("rotated"), "-subj", "/CN=rotated.pinguard.test",
                                                            "-out", csr])
        XCTAssertEqual(made.status, 0, "\(made)")
        for input in [pki.key("rotated"), csr] {
            let r = try runPinguard(args: ["plan", "--key", input, "--chain", pki.intermediate, "--host", "rotated.pinguard.test",
                                           "--policy", apps.ios, "--policy", apps.android, "--json"])
            XCTAssertEqual(r.status, 1, "\(input): \(r)")
            let v = try verdicts(r)
            XCTAssertEqual(v["ios-app"]?["reason"] as? String, "pin_mismatch", input)
            XCTAssertEqual(v["android-app"]?["verdict"] as? String, "accept", "the CA pin matches the issuing intermediate: \(input)")
            XCTAssertTrue(r.stderr.contains("trust assumed"), r.stderr)
        }
        let valid = try runPinguard(args: ["plan", "--key", pki.key("valid"), "--host", "valid.pinguard.test", "--policy", apps.ios])
        XCTAssertEqual(valid.status, 0, "\(valid)")
        let notKey = try runPinguard(args: ["plan", "--key", apps.ios, "--host", "valid.pinguard.test", "--policy", apps.ios])
        XCTAssertEqual(notKey.status, 2, "\(notKey)")
        XCTAssertTrue(notKey.stderr.contains("not a PEM public key, private key or certificate request"), notKey.stderr)
    }

    func testBadInputExitsTwoWithTheCause() throws {
        let pki = try TestPKI.shared()
        let apps = try apps()
        let missing = try runPinguard(args: ["plan", "--chain", "/nonexistent.pem", "--host", "a.pinguard.test", "--policy", apps.ios])
        XCTAssertEqual(missing.status, 2, "\(missing)")
        XCTAssertTrue(missing.stderr.contains("/nonexistent.pem: cannot read the file"), missing.stderr)
        let notCert = try runPinguard(args: ["plan", "--chain", apps.ios, "--host", "a.pinguard.test", "--policy", apps.ios])
        XCTAssertEqual(notCert.status, 2, "\(notCert)")
        XCTAssertTrue(notCert.stderr.contains("not a PEM bundle or a DER certificate"), notCert.stderr)
        let badDate = try runPinguard(args: ["plan", "--chain", pki.chain("valid"), "--host", "a", "--policy", apps.ios, "--at", "soon"])
        XCTAssertEqual(badDate.status, 64, "\(badDate)")
        XCTAssertTrue(badDate.stderr.contains("--at \"soon\" is not a date"), badDate.stderr)
    }
}
