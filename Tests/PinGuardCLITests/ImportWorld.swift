import Foundation
import PinGuardTestSupport
import XCTest

/// The real pins of the test PKI, computed with the `openssl` reference pipeline (docs/reference.md, Policy files and Evaluation), not with the
/// code under test, for the source files the import end-to-end tests write.
struct ImportPins: Sendable {
    /// SPKI pin of the `valid` leaf.
    let valid: String
    /// SPKI pin of the `expiring` leaf.
    let expiring: String
    /// SPKI pin of the `otherca` leaf (issued by the other root's intermediate).
    let otherca: String
    /// SPKI pin of `reserve.key`, which no server uses: the backup pin.
    let reserve: String
    /// SPKI pin of `backup-spare.key`, the key the `backup` leaf runs on.
    let backupSpare: String
    /// SPKI pin of the test intermediate (a CA pin).
    let intermediate: String
    /// SPKI pin of the test root (a CA pin).
    let root: String
    /// SPKI pin of the leaf the world issues for the two-label-deep names (`api.eu.pinguard.test`, …).
    let deep: String
}

/// The live servers and the folder the import end-to-end tests work in, started once per test process:
/// one nginx on loopback serving, by SNI, the PKI leaves `valid` (default), `rotated`, `backup`, `expiring`,
/// `otherca`, `p384`, and a leaf issued here by the test intermediate for `api.eu.pinguard.test`,
/// `api.us.pinguard.test` and `eu.pinguard.test` (names two labels and one label below `pinguard.test`, to tell
/// OkHttp's `*.` from `**.`).
final class ImportWorld: Sendable {
    /// The PKI leaves served under `NAME.pinguard.test`.
    static let leaves = ["valid", "rotated", "backup", "expiring", "otherca", "p384"]
    /// The names the deep leaf is served under.
    static let deepNames = ["api.eu.pinguard.test", "api.us.pinguard.test", "eu.pinguard.test"]

    let pki: TestPKI
    let pins: ImportPins
    let farm: TLSServerFarm
    /// Where sources, imported policies and configs are written.
    let directory: URL

    private static let started: Result<ImportWorld, HarnessError> = {
        do { return .success(try ImportWorld()) } catch let e as HarnessError { return .failure(e) } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    /// The shared world; throws when it could not be set up.
    static func shared() throws -> ImportWorld { try started.get() }

    private init() throws {
        let pki = try TestPKI.shared()
        self.pki = pki
        let dir = try TemporaryDirectory.make("pinguard-import-e2e")
        directory = dir
        let deep = try Self.issueDeepLeaf(pki: pki, into: dir)
        pins = ImportPins(valid: try OpenSSLTool.spkiSHA256(certificate: pki.certificate("valid")),
                          expiring: try OpenSSLTool.spkiSHA256(certificate: pki.certificate("expiring")),
                          otherca: try OpenSSLTool.spkiSHA256(certificate: pki.certificate("otherca")),
                          reserve: try OpenSSLTool.spkiSHA256(privateKey: pki.reserveKey),
                          backupSpare: try OpenSSLTool.spkiSHA256(privateKey: pki.backupSpareKey),
                          intermediate: try OpenSSLTool.spkiSHA256(certificate: pki.intermediate),
                          root: try OpenSSLTool.spkiSHA256(certificate: pki.root),
                          deep: try OpenSSLTool.spkiSHA256(certificate: deep.certificate))
        let sites = Self.leaves.map { TLSSite.leaf($0, in: pki) }
            + Self.deepNames.map { TLSSite(serverName: $0, chainFile: deep.chain, keyFile: deep.key) }
        farm = try TLSServerFarm(sites: sites, ipv6: false)
    }

    /// Issues a P-256 leaf for `deepNames` from the test intermediate (without touching the PKI's CA database).
    private static func issueDeepLeaf(pki: TestPKI, into dir: URL) throws -> (certificate: String, chain: String, key: String) {
        let base = dir.appendingPathComponent("deep").path
        let ext = "[ext]\nbasicConstraints = critical, CA:false\nkeyUsage = critical, digitalSignature\n"
            + "extendedKeyUsage = serverAuth\nsubjectAltName = " + deepNames.map { "DNS:\($0)" }.joined(separator: ", ") + "\n"
        try ext.write(toFile: base + ".ext", atomically: true, encoding: .utf8)
        let serial = "0x" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16)
        let steps: [[String]] = [
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", base + ".key"],
            ["req", "-new", "-key", base + ".key", "-subj", "/CN=\(deepNames[0])", "-out", base + ".csr"],
            ["x509", "-req", "-in", base + ".csr", "-CA", pki.intermediate, "-CAkey", pki.path("ca/int.key"),
             "-set_serial", serial, "-days", "30", "-sha256", "-extfile", base + ".ext", "-extensions", "ext",
             "-out", base + ".pem"],
        ]
        for args in steps {
            let r = try CommandRunner.run(OpenSSLTool.path, args)
            guard r.status == 0 else { throw HarnessError("openssl \(args.joined(separator: " ")): \(r)") }
        }
        let chain = try String(contentsOfFile: base + ".pem", encoding: .utf8)
            + String(contentsOfFile: pki.intermediate, encoding: .utf8)
        try chain.write(toFile: base + "-chain.pem", atomically: true, encoding: .utf8)
        return (base + ".pem", base + "-chain.pem", base + ".key")
    }

    // MARK: commands

    /// One `pinguard import` run: its result, the source and the YAML written from stdout.
    struct Imported {
        let result: CommandResult
        let source: String
        let sourceText: String
        let yaml: String
    }

    /// Writes `text` as `fileName`, runs `pinguard import --format FORMAT FILE --name NAME` and writes its stdout
    /// to `fileName.yml`.
    func importSource(_ format: String, _ text: String, as fileName: String, name: String) throws -> Imported {
        let source = try PolicyYAML.write(text, to: directory, as: fileName)
        let r = try runPinguard(args: ["import", "--format", format, source, "--name", name])
        XCTAssertFalse(r.timedOut, "\(r)")
        let yaml = try PolicyYAML.write(r.stdout, to: directory, as: fileName + ".yml")
        return Imported(result: r, source: source, sourceText: text, yaml: yaml)
    }

    /// `pinguard lint --format json FILE`: status and findings.
    func lint(_ file: String) throws -> (CommandResult, [[String: Any]]) {
        let r = try runPinguard(args: ["lint", "--format", "json", file])
        XCTAssertFalse(r.timedOut, "\(r)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return (r, try XCTUnwrap(object as? [[String: Any]], "\(r)"))
    }

    /// `pinguard probe HOST:PORT --connect 127.0.0.1 --ca-file BUNDLE --policy FILE --json`: status and JSON.
    func probe(_ host: String, policy: String, caFile: String? = nil) throws -> (CommandResult, [String: Any]) {
        let args = ["probe", "\(host):\(farm.port)", "--connect", "127.0.0.1", "--ca-file", caFile ?? pki.caBundle,
                    "--policy", policy, "--timeout", "5s", "--json"]
        let r = try runPinguard(args: args)
        XCTAssertFalse(r.timedOut, "\(r)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return (r, try XCTUnwrap(object as? [String: Any], "\(r)"))
    }
}
