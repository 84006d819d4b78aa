import Foundation

/// The shared hostile-input reproducers (`Tests/Fixtures/repro/`, committed with the package), each of
/// which once crashed, hung or ballooned pinguard.
public enum HostileInputs {
    /// The reproducer folder, derived from this file's path so it does not depend on the working directory.
    public static let folder: URL = Repository.root.appendingPathComponent("Tests/Fixtures/repro")

    /// Path of reproducer `name`; throws a clear error when the folder is missing.
    public static func path(_ name: String) throws -> String {
        let p = folder.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: p) else { throw HarnessError("missing reproducer \(p)") }
        return p
    }
}
