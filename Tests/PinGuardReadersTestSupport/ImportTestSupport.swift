import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders

/// Paths, sample hashes and chains shared by the importer tests (PinGuardReadersTests) and the lint and forecast
/// tests of the core that judge imported or parsed policies (PinGuardCoreTests).
public enum ImportTestSupport {
    /// The repository root, found from this file's path (tests read the committed examples).
    public static let repoRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Bytes of a repository file.
    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: repoRoot.appendingPathComponent(relative)))
    }

    /// Imports text.
    public static func run(_ format: PolicyImportFormat, _ text: String, file: String = "input", name: String = "app",
                    environment: String = "prod") throws -> ImportResult {
        try PolicyImporter.importPolicy(format: format, contents: Array(text.utf8), file: file, name: name,
                                        environment: environment)
    }

    /// The import's error, failing the test when it does not throw one.
    public static func failure(_ format: PolicyImportFormat, _ text: String, file: String = "input",
                        line: UInt = #line) -> ImportError? {
        do {
            let r = try run(format, text, file: file)
            XCTFail("expected an ImportError, got \(r.policySet)", line: line)
            return nil
        } catch let e as ImportError {
            return e
        } catch {
            XCTFail("unexpected error \(error)", line: line)
            return nil
        }
    }

    /// Sample SHA-256 hashes (base64 of 32 random bytes).
    public static let h = [
        "V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=", "kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow=",
        "O4MNGvlUsPWNQXXQK2cRWHhcyrNwvjd+gKhFdH2d5y4=", "rdkf8/jIQCpK2HHmPVNFczL7hjxJxCB3tjK38TxHXHg=",
        "exRdwjZsQL+GLZZUOzPYrjaaNhy14GbptjWoIt5+duc=", "8m+eG+x5zMwPVEYeNyiTF7scyqQw3ZwBfTm3l+Miv78=",
        "1zetCgNco60XHqm28pFgz/Qvn7/sYuOhQVT6+XXtgb4=", "qGA0VIxp32qwZqmV4o84e0DKeHWBeJ96IxYqHCQDgxA=",
    ]

    /// The single rule of `result` for `pattern`.
    public static func rule(_ result: ImportResult, _ pattern: String, env: String = "prod",
                     line: UInt = #line) -> PatternRule? {
        let r = result.policySet.environments[env]?.rules.first { $0.pattern.description == pattern }
        if r == nil { XCTFail("no rule \(pattern) in \(result.yaml)", line: line) }
        return r
    }

    /// Findings whose message contains `text`.
    public static func findings(_ result: ImportResult, containing text: String) -> [ImportFinding] {
        result.findings.filter { $0.message.contains(text) }
    }

    public static let now = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    /// A certificate with the given SPKI hash.
    public static func cert(_ depth: Int, spki: String, ca: Bool = false, source: CertificateSource = .served) -> ChainCertificate {
        ChainCertificate(depth: depth, subject: "CN=c\(depth)", issuer: "CN=c\(depth + 1)",
                         notBefore: now.addingTimeInterval(-86_400 * 30), notAfter: now.addingTimeInterval(86_400 * 60),
                         spkiSHA256: spki, certSHA256: Base64.encode([UInt8](repeating: UInt8(depth), count: 32)),
                         isCA: ca, selfIssued: source == .store, source: source)
    }

    /// Facts of a successful probe of `host` with a leaf, an intermediate and a store root.
    public static func facts(host: String, leaf: String, intermediate: String, root: String = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                      trusted: Bool = true) -> ProbeFacts {
        let served = [cert(0, spki: leaf), cert(1, spki: intermediate, ca: true)]
        let verified = served + [cert(2, spki: root, ca: true, source: .store)]
        return ProbeFacts(host: host, port: 443, servedChain: served, verifiedChain: trusted ? verified : [],
                          trusted: trusted, finishedAt: now)
    }

    /// Evaluates the imported set for a host.
    public static func evaluate(_ result: ImportResult, _ facts: ProbeFacts) -> Evaluation? {
        Evaluator.evaluate(facts, policySet: result.policySet, environment: "prod", named: true, now: now)
    }

    /// Asserts the YAML parses back to the same policy set.
    public static func assertRoundTrip(_ result: ImportResult, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let parsed = try PolicyParser.parse(result.yaml, file: "roundtrip.yml")
            XCTAssertEqual(parsed.strippingSourcePositions(), result.policySet.strippingSourcePositions(),
                           file: file, line: line)
        } catch {
            XCTFail("emitted YAML does not parse: \(error)\n\(result.yaml)", file: file, line: line)
        }
    }
}
