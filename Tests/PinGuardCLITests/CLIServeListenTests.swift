import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PinGuardTestSupport
import XCTest

/// `serve` on an address already in use names it and exits 2 before anything is probed.
final class CLIServeListenTests: XCTestCase {
    /// A TCP socket listening on 127.0.0.1 at a port the kernel picks; (descriptor, port).
    static func occupiedPort() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        guard fd >= 0, bound else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot open a listening socket: errno \(errno)"]) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    func testAPortInUseIsNamedAndExitsTwoBeforeAnyProbe() throws {
        let (fd, port) = try Self.occupiedPort()
        defer { close(fd) }
        let dir = try TemporaryDirectory.make("pinguard-listen-in-use")
        let config = dir.appendingPathComponent("pinguard.yml").path
        // The target is the occupied port itself: a probe would connect to it and fail its handshake.
        try "interval: 1h\njournal: {enabled: false}\npolicies: []\ntargets:\n  - {host: api.example.test, port: \(port), connect: 127.0.0.1, name: api}\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        // A serve that went on would run until the timeout stopped it: ending on its own with status 2 is the check.
        let r = try PinguardCLI.run(["serve", "--config", config, "--listen", "127.0.0.1:\(port)", "--log-events"], timeout: 120)
        XCTAssertFalse(r.timedOut, "serve went on with its port in use: \(r.stderr)")
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("pinguard: cannot listen on 127.0.0.1:\(port): address already in use"), r.stderr)
        XCTAssertFalse(r.stderr.contains("[probe_failed]"), "nothing is probed: \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("[config_loaded]"), "it stops before the service starts: \(r.stderr)")
    }
}
