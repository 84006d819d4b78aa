import Foundation

/// Data files shipped with pinguard, found next to the executable (`pinguard_PinGuardConfig.resources/`, where
/// SwiftPM puts them) or in `../share/pinguard/` (where an installation copies them) — not through
/// `Bundle.module`, whose accessor stops the process when an installed binary has no bundle beside it.
public enum BundledResource {
    /// The path of resource `name`, when one is found.
    public static func path(_ name: String, executable: URL? = Bundle.main.executableURL) -> String? {
        guard let exe = executable?.resolvingSymlinksInPath() else { return nil }
        let dir = exe.deletingLastPathComponent()
        let candidates = [
            dir.appendingPathComponent("pinguard_PinGuardConfig.resources").appendingPathComponent(name),
            dir.deletingLastPathComponent().appendingPathComponent("share/pinguard").appendingPathComponent(name),
        ]
        return candidates.map(\.path).first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
