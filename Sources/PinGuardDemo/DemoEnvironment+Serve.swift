import Foundation
import PinGuardCore

/// The demo as `pinguard serve` runs it without `--config` (PinGuardService's `ServeCommand` starts it): a folder
/// of its own under the temporary directory, a banner saying how to look at it, and the folder removed on exit.
extension DemoEnvironment {
    /// Where the demo listens when `--listen` says nothing: loopback only.
    public static let defaultListen = "127.0.0.1:9477"

    /// Generates the demo in `pinguard-demo-PID` under the temporary directory, listening on `listen` (else
    /// `defaultListen`), and starts its endpoints.
    public static func temporary(listen: String?, processID: Int32) throws -> DemoEnvironment {
        try DemoEnvironment(directory: NSTemporaryDirectory() + "pinguard-demo-\(processID)", listen: listen ?? defaultListen)
    }

    /// The lines `pinguard serve` writes on standard error when it starts the demo: the folder to edit, how to
    /// reload, and commands that show the metrics, the events and a plan before a rotation.
    public func banner(listen: String?, processID: Int32) -> String {
        let port = ListenAddress.parse(listen ?? Self.defaultListen)?.port ?? 9477
        return """
        pinguard: no --config given: running the built-in demo (4 loopback TLS endpoints, 2 pinned apps).
          config and policies: \(directory)  (edit them, then `kill -HUP \(processID)`)
          metrics:             curl -s http://127.0.0.1:\(port)/metrics | grep -E 'pinguard_policy_(accept|decision_info)'
          journal events:      journalctl -t pinguard -o verbose   (or: journalctl PINGUARD_EVENT=pin_mismatch)
          before a rotation:   pinguard plan --chain \(directory)/staged/expiring-renewal.pem --host expiring.demo.pinguard.test --config \(directory)/pinguard.yml
                               (the staged renewal of the expiring host: the iOS app rejects its new key)
          stop:                Ctrl-C
        """
    }

    /// Stops the endpoints and removes the folder, as the demo leaves nothing behind.
    public func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
