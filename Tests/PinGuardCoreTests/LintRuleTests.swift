import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// One test per lint rule: it fires on a minimal policy, and the clean policy shows no finding of it.
final class LintRuleTests: XCTestCase {
    static let h = ImportTestSupport.h
    static let now = ImportTestSupport.now // 2026-01-01T00:00:00Z
    static let suffixes = PublicSuffixList(text: """
    // a small list in the publicsuffix.org format
    com
    org
    uk
    co.uk
    // ===BEGIN PRIVATE DOMAINS===
    github.io
    *.ck
    !www.ck
    """)

    /// A two-pin policy with a backup, for environments whose rules should stay clean.
    static let goodPins = """
              pins:
                - {type: spki, hash: "\(h[0])", role: primary, scope: leaf}
                - {type: spki, hash: "\(h[1])", role: backup}
    """

    static let clean = """
    name: clean
    environments:
      prod:
        policies:
          - pattern: api.example.com
            policy:
    \(goodPins)
              expires: 2027-06-30
          - pattern: "**.example.com"
            policy:
    \(goodPins)
        default_policy:
    \(goodPins.replacingOccurrences(of: "      pins", with: "  pins").replacingOccurrences(of: "        - ", with: "    - "))
    """

    func lint(_ yaml: String, days: Int = 30, file: StaticString = #filePath, line: UInt = #line) -> [LintFinding] {
        do {
            let set = try PolicyParser.parse(yaml, file: "policy.yml")
            return PolicyLinter.lint([set], now: Self.now, publicSuffixes: Self.suffixes, expiringWithinDays: days)
        } catch {
            XCTFail("fixture does not parse: \(error)\n\(yaml)", file: file, line: line)
            return []
        }
    }

    /// A set with one environment and one rule.
    func policy(env: String = "prod", pattern: String = "api.example.com", _ body: String) -> String {
        """
        name: t
        environments:
          \(env):
            policies:
              - pattern: "\(pattern)"
                policy:
        \(body.split(separator: "\n", omittingEmptySubsequences: false).map { "          " + $0 }.joined(separator: "\n"))
        """
    }

    func only(_ rule: LintRule, in findings: [LintFinding]) -> [LintFinding] {
        findings.filter { $0.rule == rule }
    }

    func testCleanPolicyHasNoFindings() {
        XCTAssertEqual(lint(Self.clean), [])
    }

    func testNoBackupPin() throws {
        let f = only(.noBackupPin, in: lint(policy("pins:\n  - {hash: \"\(Self.h[0])\"}")))
        XCTAssertEqual(f.count, 1)
        XCTAssertEqual(f.first?.severity, .error)
        XCTAssertEqual(f.first?.line, 8)
        XCTAssertEqual(f.first?.pattern, "api.example.com")
        let sameKey = lint(policy("pins:\n  - {type: spki, hash: \"\(Self.h[0])\"}\n  - {type: ca, hash: \"\(Self.h[0])\", role: backup}"))
        XCTAssertEqual(only(.noBackupPin, in: sameKey).count, 1, "an spki and a ca pin of the same key are one key")
        let groups = lint(policy("""
        match: each_group
        pins:
          - {hash: "\(Self.h[0])", scope: leaf, group: leaf}
          - {hash: "\(Self.h[1])", scope: leaf, group: leaf, role: backup}
          - {type: ca, hash: "\(Self.h[2])", group: ca}
        """))
        XCTAssertEqual(only(.noBackupPin, in: groups).map(\.message).first?.contains("in group ca"), true)
        XCTAssertEqual(only(.noBackupPin, in: lint(Self.clean)), [])
    }

    func testNoBackupRole() {
        let f = only(.noBackupRole, in: lint(policy("pins:\n  - {hash: \"\(Self.h[0])\"}\n  - {hash: \"\(Self.h[1])\"}")))
        XCTAssertEqual(f.map(\.severity), [.warning])
        XCTAssertEqual(f.first?.line, 5)
        XCTAssertEqual(only(.noBackupRole, in: lint(Self.clean)), [])
    }

    func testBackupSameAsPrimary() {
        let f = only(.backupSameAsPrimary, in: lint(policy("""
        pins:
          - {hash: "\(Self.h[0])"}
          - {hash: "\(Self.h[1])"}
          - {hash: "\(Self.h[0])", role: backup, scope: leaf}
        """)))
        XCTAssertEqual(f.map(\.severity), [.error])
        XCTAssertEqual(f.first?.line, 10)
        XCTAssertEqual(only(.backupSameAsPrimary, in: lint(Self.clean)), [])
    }

    func testDuplicatePin() {
        let f = only(.duplicatePin, in: lint(policy("""
        pins:
          - {hash: "\(Self.h[0])", scope: leaf}
          - {hash: "\(Self.h[0])", scope: any}
          - {hash: "\(Self.h[1])", role: backup}
        """)))
        XCTAssertEqual(f.map(\.severity), [.warning])
        XCTAssertEqual(f.first?.line, 9)
        XCTAssertTrue(f.first?.message.contains("line 8") ?? false)
        XCTAssertEqual(only(.duplicatePin, in: lint(Self.clean)), [])
    }

    func testPinSetExpiredAndExpiring() {
        let pins = "pins:\n  - {hash: \"\(Self.h[0])\"}\n  - {hash: \"\(Self.h[1])\", role: backup}\n"
        let expired = only(.pinSetExpired, in: lint(policy(pins + "expires: 2025-12-01")))
        XCTAssertEqual(expired.map(\.severity), [.error])
        XCTAssertTrue(expired.first?.message.contains("2025-12-02T00:00:00Z") ?? false, "enforced through that UTC day")
        let lastDay = lint(policy(pins + "expires: 2025-12-31"))
        XCTAssertEqual(only(.pinSetExpired, in: lastDay).count, 1, "2025-12-31 ended at 2026-01-01T00:00Z = now")
        let soon = only(.pinSetExpiring, in: lint(policy(pins + "expires: 2026-01-20")))
        XCTAssertEqual(soon.map(\.severity), [.warning])
        XCTAssertTrue(soon.first?.message.contains("in 20 day(s)") ?? false, soon.first?.message ?? "")
        XCTAssertEqual(only(.pinSetExpiring, in: lint(policy(pins + "expires: 2026-01-20"), days: 10)), [])
        XCTAssertEqual(only(.pinSetExpiring, in: lint(Self.clean)) + only(.pinSetExpired, in: lint(Self.clean)), [])
    }

    func testProductionMustNotFailOpen() {
        let body = "pins:\n  - {hash: \"\(Self.h[0])\"}\n  - {hash: \"\(Self.h[1])\", role: backup}\n"
            + "fail_strategy: permissive\nallow_system_trust_fallback: true\nrequire_system_trust: false"
        for env in ["prod", "production", "Production"] {
            let f = lint(policy(env: env, body))
            XCTAssertEqual(only(.prodPermissive, in: f).map(\.severity), [.warning], env)
            XCTAssertEqual(only(.prodSystemTrustFallback, in: f).map(\.severity), [.warning], env)
            XCTAssertEqual(only(.prodNoSystemTrust, in: f).map(\.severity), [.warning], env)
            XCTAssertEqual(only(.prodNoSystemTrust, in: f).first?.environment, env)
        }
        let staging = lint(policy(env: "staging", body))
        XCTAssertTrue(staging.filter { [.prodPermissive, .prodSystemTrustFallback, .prodNoSystemTrust].contains($0.rule) }.isEmpty)
    }

    func testCAPin() {
        let f = only(.caPin, in: lint(policy("""
        pins:
          - {type: ca, hash: "\(Self.h[0])"}
          - {type: spki, hash: "\(Self.h[1])", scope: root, role: backup}
          - {type: spki, hash: "\(Self.h[2])", scope: intermediate, role: backup}
          - {type: spki, hash: "\(Self.h[3])", scope: leaf}
        """)))
        XCTAssertEqual(f.map(\.line), [8, 9, 10])
        XCTAssertTrue(f.allSatisfy { $0.severity == .warning && $0.message.contains("RFC 7469") })
        XCTAssertEqual(only(.caPin, in: lint(Self.clean)), [])
    }

    func testPublicSuffixPattern() {
        let pins = "pins:\n  - {hash: \"\(Self.h[0])\"}\n  - {hash: \"\(Self.h[1])\", role: backup}"
        for pattern in ["**.com", "*.co.uk", "**.github.io", "*.foo.ck", "**.uk"] {
            let f = only(.publicSuffixPattern, in: lint(policy(pattern: pattern, pins)))
            XCTAssertEqual(f.map(\.severity), [.error], pattern)
            XCTAssertEqual(f.first?.line, 5)
        }
        for pattern in ["**.example.com", "*.example.co.uk", "**.www.ck", "**.me.github.io", "com"] {
            XCTAssertEqual(only(.publicSuffixPattern, in: lint(policy(pattern: pattern, pins))), [], pattern)
        }
    }

    func testShadowedPattern() {
        let yaml = """
        name: t
        environments:
          prod:
            policies:
              - pattern: "**.example.com"
                policy:
                  pins: [{hash: "\(Self.h[0])"}, {hash: "\(Self.h[1])", role: backup}]
              - pattern: api.example.com
                policy:
                  pins: [{hash: "\(Self.h[2])"}, {hash: "\(Self.h[3])", role: backup}]
              - pattern: www.example.com
                policy:
                  pins: [{hash: "\(Self.h[0])"}, {hash: "\(Self.h[1])", role: backup}, {hash: "\(Self.h[4])", role: backup}]
        """
        let f = only(.shadowedPattern, in: lint(yaml))
        XCTAssertEqual(f.map(\.pattern), ["api.example.com"])
        XCTAssertEqual(f.first?.severity, .info)
        XCTAssertEqual(f.first?.line, 8)
        XCTAssertTrue(f.first?.message.contains("**.example.com (line 5)") ?? false)
        XCTAssertEqual(only(.shadowedPattern, in: lint(Self.clean)), [])
    }

    func testEmptyEnvironment() {
        let f = only(.emptyEnvironment, in: lint(Self.clean + "\n  staging:\n  dev: {policies: []}\n"))
        XCTAssertEqual(f.map(\.environment), ["dev", "staging"])
        XCTAssertEqual(f.map(\.severity), [.warning, .warning])
        XCTAssertEqual(f.last?.line, 20)
        XCTAssertEqual(only(.emptyEnvironment, in: lint(Self.clean)), [])
    }

    func testNoPins() {
        let alone = only(.noPins, in: lint(policy("pins: []")))
        XCTAssertEqual(alone.map(\.severity), [.warning])
        let exclusion = """
        name: t
        environments:
          prod:
            policies:
              - pattern: "**.example.com"
                policy:
                  pins: [{hash: "\(Self.h[0])"}, {hash: "\(Self.h[1])", role: backup}]
              - pattern: status.example.com
                policy: {pins: []}
        """
        let f = only(.noPins, in: lint(exclusion))
        XCTAssertEqual(f.map(\.severity), [.info], "an exclusion inside a pinned domain is deliberate")
        XCTAssertEqual(f.first?.line, 8)
        XCTAssertEqual(only(.noPins, in: lint(Self.clean)), [])
    }

    func testDefaultPolicyIsLintedAsDefault() {
        let yaml = "name: t\nenvironments:\n  prod:\n    default_policy:\n      pins: [{hash: \"\(Self.h[0])\"}]\n"
        let f = only(.noBackupPin, in: lint(yaml))
        XCTAssertEqual(f.map(\.pattern), ["default"])
        XCTAssertEqual(f.first?.file, "policy.yml")
        XCTAssertEqual(f.first?.policySet, "t")
    }

    func testCTOffIsAWarningForClientsThatEnforceCTOnly() {
        let body = "environments:\n  prod:\n    policies:\n      - pattern: api.example.com\n        policy:\n          pins:\n"
            + "            - {type: spki, hash: \"\(String(repeating: "A", count: 43))=\", role: primary}\n"
            + "            - {type: spki, hash: \"\(String(repeating: "B", count: 42))A=\", role: backup}\n"
        let ios = lint("name: t\nclient: ios\ncertificate_transparency: off\n" + body).filter { $0.rule == .ctOff }
        XCTAssertEqual(ios.count, 1)
        XCTAssertEqual(ios.first?.severity, .warning)
        XCTAssertEqual(ios.first?.line, 1)
        XCTAssertTrue(ios.first?.message.hasPrefix("client: ios with certificate_transparency: off") ?? false)
        XCTAssertEqual(lint("name: t\nclient: android\ncertificate_transparency: off\n" + body).filter { $0.rule == .ctOff }, [])
        XCTAssertEqual(lint("name: t\nclient: ios\n" + body).filter { $0.rule == .ctOff }, [])
    }

    func testEveryRuleHasATest() {
        let covered: Set<LintRule> = [.noBackupPin, .noBackupRole, .backupSameAsPrimary, .duplicatePin, .pinSetExpired,
                                      .pinSetExpiring, .prodPermissive, .prodSystemTrustFallback, .prodNoSystemTrust,
                                      .caPin, .publicSuffixPattern, .shadowedPattern, .emptyEnvironment, .noPins,
                                      // Native-file rules: LintNativeFilesTests and LintRawKeyPinTests.
                                      .atsArbitraryLoads, .atsInsecureHTTPException, .atsTLSMinimumException,
                                      .androidCleartextTraffic, .androidUserCA, .androidOverridePins, .rawKeyPin, .nativeConfig,
                                      // Catalog rules: IssuerPoolLintTests.
                                      .issuerPoolCoverage, .retiredIssuer, .ctOff,
                                      // Client path rules: ClientPathsLintTests.
                                      .clientPathRejected, .breaksOnClientUpdate, .servedChainHazard]
        XCTAssertEqual(covered, Set(LintRule.allCases))
        XCTAssertEqual(Set(LintRule.allCases.map(\.rawValue)).count, LintRule.allCases.count)
    }

    func testImportedExamplesLintWithoutErrorsAndPointAtTheirSources() throws {
        for e in ImportExample.committed {
            let r = try PolicyImporter.importPolicy(format: e.format, contents: ImportTestSupport.bytes(e.source),
                                                    file: e.source, name: e.name, environment: "prod")
            let f = PolicyLinter.lint([r.policySet], now: Self.now, publicSuffixes: Self.suffixes)
            XCTAssertEqual(f.filter { $0.severity == .error }, [], e.source)
            XCTAssertTrue(f.allSatisfy { $0.file == e.source }, e.source)
        }
    }
}
