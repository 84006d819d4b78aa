import Foundation

/// Locates the repository root from a test source file, for scripts and fixtures.
public enum Repository {
    /// The package root (the folder holding Package.swift).
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()
}

/// A throw-away PKI made in-process (`TestPKIFiles`, the files `scripts/make-pki.sh` writes for the shell
/// benchmarks), generated once per test process into a fresh temporary folder the first time any test asks
/// for it (thread-safe: Swift initialises the `static let` once).
///
/// Leaves (see `leafNames`), each with `NAME.key`, `NAME.pem`, `NAME-chain.pem` (leaf + intermediate) and
/// `NAME.host`: every one is issued for `NAME.pinguard.test`, except `wronghost` (SAN `other.example`) —
/// so `serverName(_:)`, `NAME.pinguard.test`, is the name to probe for all of them.
public struct TestPKI: Sendable {
    /// Leaves the script issues.
    public static let leafNames = ["valid", "rsa", "rsapss", "p384", "ed25519", "expiring", "expired",
                                   "wronghost", "otherca", "rotated", "backup", "selfsigned"]

    /// The folder holding the PKI.
    public let directory: URL

    private static let generated: Result<TestPKI, HarnessError> = {
        do {
            let dir = try TemporaryDirectory.make("pinguard-pki")
            try TestPKIFiles.write(into: dir)
            return .success(TestPKI(directory: dir))
        } catch {
            return .failure(HarnessError("making the test PKI: \(error)"))
        }
    }()

    /// The process-wide PKI, generated on first use; throws when it could not be made.
    public static func shared() throws -> TestPKI { try generated.get() }

    /// Absolute path of `relative` inside the PKI folder.
    public func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// `ca-bundle.pem`: the test root only (use as `trust.ca_file` / `--ca-file`).
    public var caBundle: String { path("ca-bundle.pem") }
    /// `ca-bundle-both.pem`: both roots.
    public var caBundleBothRoots: String { path("ca-bundle-both.pem") }
    /// The test root.
    public var root: String { path("ca/root.pem") }
    /// The intermediate that issues every leaf but `otherca` and `selfsigned`.
    public var intermediate: String { path("ca/int.pem") }
    /// The other root.
    public var otherRoot: String { path("ca/root2.pem") }
    /// The other root's intermediate (issuer of `otherca`).
    public var otherIntermediate: String { path("ca/int2.pem") }
    /// A key no server uses: pin it as a reserve pin.
    public var reserveKey: String { path("reserve.key") }
    /// The spare key the `backup` leaf was issued for (pinned as the backup pin before the rotation).
    public var backupSpareKey: String { path("backup-spare.key") }

    /// The leaf certificate `NAME.pem`.
    public func certificate(_ name: String) -> String { path("\(name).pem") }
    /// `NAME-chain.pem`: leaf + issuing intermediate (the self-signed leaf alone).
    public func chain(_ name: String) -> String { path("\(name)-chain.pem") }
    /// `NAME.key`.
    public func key(_ name: String) -> String { path("\(name).key") }
    /// The DNS name in the leaf's SAN (`NAME.host`).
    public func sanName(_ name: String) -> String {
        ((try? String(contentsOfFile: path("\(name).host"), encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    /// The name to probe and serve the leaf under: `NAME.pinguard.test` (for `wronghost`, not its SAN).
    public func serverName(_ name: String) -> String { "\(name).pinguard.test" }

    /// A DER copy of a PEM certificate, written next to it once (`FILE.der`).
    public func der(of pemPath: String) throws -> String {
        let out = pemPath.replacingOccurrences(of: ".pem", with: "") + ".der"
        if FileManager.default.fileExists(atPath: out) { return out }
        let body = try String(contentsOfFile: pemPath, encoding: .utf8).split(separator: "\n")
            .drop { !$0.hasPrefix("-----BEGIN CERTIFICATE") }.dropFirst().prefix { !$0.hasPrefix("-----END") }.joined()
        guard let der = Data(base64Encoded: body) else { throw HarnessError("\(pemPath) holds no PEM certificate") }
        let tmp = out + ".\(UUID().uuidString.prefix(6))"
        try der.write(to: URL(fileURLWithPath: tmp))
        // Another thread may have written it meanwhile: the first rename wins, both copies are equal.
        if (try? FileManager.default.moveItem(atPath: tmp, toPath: out)) == nil { try? FileManager.default.removeItem(atPath: tmp) }
        return out
    }

    /// A PEM file holding the intermediate `count` times, written once: the tail of an absurdly long chain
    /// that costs nothing to make.
    public func repeatedIntermediate(count: Int) throws -> String {
        let out = path("ca/int-x\(count).pem")
        if FileManager.default.fileExists(atPath: out) { return out }
        let int = try String(contentsOfFile: intermediate, encoding: .utf8)
        try String(repeating: int, count: count).write(toFile: out, atomically: true, encoding: .utf8)
        return out
    }
}
