import Foundation
import PinGuardTestSupport
import XCTest

/// A pinguard binary copied alone (no resource folder beside it, no ../share/pinguard) finds its bundled data
/// through `PINGUARD_DATA_DIR`, and without it says what is missing and how to give it.
final class CopiedBinaryTests: XCTestCase {
    func testACopiedBinaryPlansWithItsDataFolderAndNamesTheVariableWithout() throws {
        let binary = try XCTUnwrap(PinguardCLI.binary, "the pinguard binary is not built")
        let resources = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("pinguard_PinGuardConfig.resources")
        guard FileManager.default.fileExists(atPath: resources.path) else {
            throw XCTSkip("the build has no resource folder beside pinguard (\(resources.path)): nothing to copy from")
        }
        let dir = try TemporaryDirectory.make("pinguard-copied")
        let copy = dir.appendingPathComponent("bin/pinguard")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: binary, toPath: copy.path)
        let data = dir.appendingPathComponent("data")
        try FileManager.default.copyItem(at: resources, to: data)

        let pki = try TestPKI.shared()
        // An iOS app: judged with Apple's CT log list and iOS's trust stores, both bundled data.
        let policy = try PolicyYAML.write("client: ios\n" + PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [.spki(try PKIPins.shared().leaf("valid"))]),
        ]), to: dir, as: "app.yml")
        let args = ["plan", "--chain", pki.chain("valid"), "--host", "valid.pinguard.test", "--policy", policy,
                    "--ca-file", pki.caBundleBothRoots]
        var environment = ProcessInfo.processInfo.environment
        environment["PINGUARD_DATA_DIR"] = nil
        let alone = try CommandRunner.run(copy.path, args, environment: environment)
        XCTAssertEqual(alone.status, 2, "\(alone)")
        XCTAssertTrue(alone.stderr.contains("not found in $PINGUARD_DATA_DIR, next to pinguard"), alone.stderr)
        XCTAssertTrue(alone.stderr.contains("set PINGUARD_DATA_DIR"), alone.stderr)

        environment["PINGUARD_DATA_DIR"] = data.path
        let withData = try CommandRunner.run(copy.path, args, environment: environment)
        XCTAssertEqual(withData.status, 0, "the valid chain is accepted: \(withData)")
        XCTAssertTrue(withData.stdout.contains("accept"), withData.stdout)
    }
}
