import Foundation

/// Data files shipped with pinguard (CT log lists, the public suffix list, the issuer catalog, the clients'
/// trust stores), found in the folder `PINGUARD_DATA_DIR` names, next to the executable
/// (`pinguard_PinGuardConfig.resources/`, where SwiftPM puts them) or in `../share/pinguard/` (where an
/// installation copies them) — not through `Bundle.module`, whose accessor stops the process when an
/// installed binary has no bundle beside it. A binary copied alone finds its data through `PINGUARD_DATA_DIR`.
public enum BundledResource {
    /// The environment variable naming a folder of the data files, searched first.
    public static let dataDirVariable = "PINGUARD_DATA_DIR"

    /// Where the files are sought, for messages about one that is missing.
    public static let whereSought = "in $\(dataDirVariable), next to pinguard (pinguard_PinGuardConfig.resources/) or in ../share/pinguard"

    /// The path of resource `name`, when one is found.
    public static func path(_ name: String, executable: URL? = Bundle.main.executableURL,
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates: [URL] = []
        if let dir = environment[dataDirVariable], !dir.isEmpty {
            candidates.append(URL(fileURLWithPath: dir).appendingPathComponent(name))
        }
        if let exe = executable?.resolvingSymlinksInPath() {
            let dir = exe.deletingLastPathComponent()
            candidates.append(dir.appendingPathComponent("pinguard_PinGuardConfig.resources").appendingPathComponent(name))
            candidates.append(dir.deletingLastPathComponent().appendingPathComponent("share/pinguard").appendingPathComponent(name))
        }
        return candidates.map(\.path).first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
