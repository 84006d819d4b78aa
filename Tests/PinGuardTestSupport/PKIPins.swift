import Foundation
import PinGuardCore
import PinGuardCrypto

/// The pins of the test PKI, read once with `CertificateReader` (the cross-checks prove them equal to OpenSSL's).
public struct PKIPins: Sendable {
    /// Each leaf of the test PKI by name, as `CertificateReader` reads it.
    public let leaves: [String: ChainCertificate]
    /// The intermediate, as `CertificateReader` reads it.
    public let intermediateFacts: ChainCertificate
    /// The root, as `CertificateReader` reads it.
    public let rootFacts: ChainCertificate
    /// SPKI pin of `reserve.key`, which no server uses.
    public let reserve: String
    /// SPKI pin of `backup-spare.key`, the key the `backup` leaf was issued for.
    public let backupSpare: String

    private static let loaded: Result<PKIPins, HarnessError> = {
        do { return .success(try PKIPins()) } catch { return .failure(HarnessError("\(error)")) }
    }()

    /// The pins, read on first use; throws when the PKI could not be made or read.
    public static func shared() throws -> PKIPins { try loaded.get() }

    private init() throws {
        let pki = try TestPKI.shared()
        func load(_ path: String) throws -> ChainCertificate {
            guard let data = FileManager.default.contents(atPath: path) else { throw HarnessError("cannot read \(path)") }
            guard let first = try CertificateReader.load([UInt8](data), file: path).first else { throw HarnessError("\(path): empty") }
            return first
        }
        var leaves: [String: ChainCertificate] = [:]
        for name in TestPKI.leafNames { leaves[name] = try load(pki.certificate(name)) }
        self.leaves = leaves
        intermediateFacts = try load(pki.intermediate)
        rootFacts = try load(pki.root)
        reserve = try OpenSSLTool.spkiSHA256(privateKey: pki.reserveKey)
        backupSpare = try OpenSSLTool.spkiSHA256(privateKey: pki.backupSpareKey)
    }

    /// SPKI pin of leaf `name`.
    public func leaf(_ name: String) -> String { leaves[name]?.spkiSHA256 ?? "missing-\(name)" }
    /// Certificate pin of leaf `name`.
    public func cert(_ name: String) -> String { leaves[name]?.certSHA256 ?? "missing-\(name)" }
    /// notAfter of leaf `name`.
    public func notAfter(_ name: String) -> Date { leaves[name]?.notAfter ?? .distantPast }
    /// notAfter of the intermediate.
    public var intermediateNotAfter: Date { intermediateFacts.notAfter }
    /// notAfter of the root.
    public var rootNotAfter: Date { rootFacts.notAfter }
    /// SPKI pin of the intermediate.
    public var intermediate: String { intermediateFacts.spkiSHA256 }
    /// SPKI pin of the root.
    public var root: String { rootFacts.spkiSHA256 }
}
