/// The pinguard version reported by `--version` and `pinguard_build_info`.
public enum PinGuardVersion {
    /// Semantic version of this build.
    public static let current = "0.1.0"
}
