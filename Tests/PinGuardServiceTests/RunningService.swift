import Foundation
import PinGuardTestSupport
import XCTest

/// One `pinguard serve` inside a private journald, probing every kind of target every 2 s, shared by the
/// metrics, journal and HTTP tests (which only read from it). Started on first use, killed by PID when the
/// test process exits.
final class RunningService: Sendable {
    let world: ServiceWorld
    let serve: ServeProcess
    let configPath: String
    /// Target names in config order.
    let targetNames: [String]

    private static let started: Result<RunningService, Error> = {
        do { return .success(try RunningService()) } catch { return .failure(error) }
    }()

    /// The shared service, with its first round done.
    static func shared() throws -> RunningService { try started.get() }

    private init() throws {
        world = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-svc-main")
        let targets = [world.healthy, world.expiring, world.rotated, world.backup, world.down(), world.uncovered]
        targetNames = targets.map(\.name)
        configPath = try world.writeConfig(in: dir, targets: targets)
        serve = try ServeProcess(arguments: ["--config", configPath])
        let ready = Date().addingTimeInterval(15)
        while Date() < ready, (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) != 200 { usleep(50_000) }
        guard (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 else {
            throw HarnessError("not ready within 15 s:\n\(serve.stderr)")
        }
    }
}
