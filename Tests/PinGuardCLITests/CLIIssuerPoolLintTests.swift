import Foundation
import PinGuardTestSupport
import XCTest

/// `pinguard lint` with the bundled issuer catalog: a policy pinning Let's Encrypt's R10 alone.
final class CLIIssuerPoolLintTests: XCTestCase {
    func testAnR10OnlyPolicyIsFlaggedByTheBuiltBinary() throws {
        let dir = try TemporaryDirectory.make("pinguard-r10")
        let file = try PolicyYAML.write("""
        name: r10-app
        environments:
          prod:
            policies:
              - pattern: "api.example.com"
                policy:
                  pins:
                    - {type: spki, hash: "K7rZOrXHknnsEhUH8nLL4MZkejquUuIvOIr6tCa0rbo=", role: primary, scope: intermediate}
                    - {type: spki, hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", role: backup, scope: leaf}

        """, to: dir, as: "r10.yml")
        let r = try runPinguard(args: ["lint", file])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(r.stdout.contains("\(file):8: error: [retired-issuer] pins Let's Encrypt R10, an intermediate Let's Encrypt no longer issues from"),
                      r.stdout)
        XCTAssertTrue(r.stdout.contains("\(file):8: warning: [issuer-pool-coverage] pins Let's Encrypt R10; Let's Encrypt issues from YR1, YR2: 2 of 2 renewals break this pin"),
                      r.stdout)
        let sarif = try runPinguard(args: ["lint", "--format", "sarif", file])
        XCTAssertTrue(sarif.stdout.contains("\"id\" : \"issuer-pool-coverage\"") || sarif.stdout.contains("\"id\":\"issuer-pool-coverage\""),
                      String(sarif.stdout.prefix(2_000)))
    }
}
