import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// The real TLS servers the probe tests share, started once per test process on first use:
/// every leaf of the test PKI by SNI on one nginx port (TLS 1.2 + 1.3, IPv4 and IPv6 loopback),
/// and a TLS 1.2-only nginx serving `valid`.
public final class LiveServers: Sendable {
    /// The generated PKI.
    public let pki: TestPKI
    /// Every leaf under `NAME.pinguard.test`; `valid` is the default site.
    public let farm: TLSServerFarm
    /// `valid` only, `ssl_protocols TLSv1.2`.
    public let tls12Farm: TLSServerFarm
    /// A prober trusting the test root only (`ca-bundle.pem`).
    public let prober: TLSProber

    private static let started: Result<LiveServers, HarnessError> = {
        do { return .success(try LiveServers()) } catch let e as HarnessError { return .failure(e) } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    /// The shared servers; throws when they could not start.
    public static func shared() throws -> LiveServers { try started.get() }

    private init() throws {
        let pki = try TestPKI.shared()
        self.pki = pki
        let names = ["valid"] + TestPKI.leafNames.filter { $0 != "valid" }
        farm = try TLSServerFarm(sites: names.map { TLSSite.leaf($0, in: pki) })
        tls12Farm = try TLSServerFarm(sites: [TLSSite.leaf("valid", in: pki)], protocols: ["TLSv1.2"])
        prober = try TLSProber(caFile: pki.caBundle)
    }

    /// A request for leaf `name` on the farm, dialling `connect`.
    public func request(_ name: String, connect: String? = "127.0.0.1", timeout: Double = 5) -> ProbeRequest {
        ProbeRequest(host: pki.serverName(name), port: farm.port, connect: connect.map { [$0] } ?? [], timeout: timeout)
    }

    /// Probes leaf `name` on the farm with the shared prober (test root trusted).
    public func probe(_ name: String, connect: String? = "127.0.0.1") -> ProbeFacts {
        prober.probe(request(name, connect: connect))
    }

    /// Facts of the first certificate in a PEM or DER file, read by `CertificateReader.load`.
    public func fileFacts(_ path: String) throws -> [ChainCertificate] {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path), "cannot read \(path)")
        return try CertificateReader.load([UInt8](data), file: path)
    }
}
