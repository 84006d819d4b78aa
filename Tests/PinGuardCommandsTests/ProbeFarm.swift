import PinGuardTestSupport

/// The TLS servers the probe tests share, started once per test process on first use: every leaf of the test
/// PKI by SNI on one nginx port (TLS 1.2 and 1.3, IPv4 and IPv6 loopback).
final class ProbeFarm: Sendable {
    /// The generated PKI.
    let pki: TestPKI
    /// Every leaf under `NAME.pinguard.test`; `valid` is the default site.
    let farm: TLSServerFarm

    private static let started: Result<ProbeFarm, HarnessError> = {
        do { return .success(try ProbeFarm()) } catch let e as HarnessError { return .failure(e) } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    /// The shared servers; throws when they could not start.
    static func shared() throws -> ProbeFarm { try started.get() }

    private init() throws {
        let pki = try TestPKI.shared()
        self.pki = pki
        farm = try TLSServerFarm(sites: (["valid"] + TestPKI.leafNames.filter { $0 != "valid" }).map { TLSSite.leaf($0, in: pki) })
    }
}
