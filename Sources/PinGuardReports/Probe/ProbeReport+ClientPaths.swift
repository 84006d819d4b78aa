import Foundation
import PinGuardCore

/// The path each client builds, version range by version range (docs/reference.md, Clients and their stores):
/// `paths` in probe --json and plan --json, and a line per range where the versions disagree.
extension ProbeReport {
    /// `paths` of an evaluation: `[{versions, chain, anchor, verdict, reason, trust_error, hazards}]`.
    public static func pathsObject(_ e: Evaluation) -> [[String: Any]] {
        e.paths.map { p in
            ["versions": p.versions?.description ?? NSNull(), "version_name": p.versionName, "chain": p.chain,
             "anchor": p.anchor ?? NSNull(), "anchor_subject": p.anchorSubject ?? NSNull(), "verdict": p.verdict.rawValue,
             "reason": p.reason.rawValue, "trust_error": p.trustError ?? NSNull(), "hazards": p.hazards]
        }
    }

    /// One line per version range when the set's versions do not all decide alike, and each hazard once.
    static func pathsText(_ evaluations: [Evaluation]) -> String {
        var out = ""
        for e in evaluations {
            let verdicts = Set(e.paths.map(\.verdict))
            if verdicts.count > 1 || e.paths.count > 1 {
                for p in e.paths { out += "\(e.policySet): \(words(p))\n" }
            }
            var said: Set<String> = []
            for h in e.paths.flatMap(\.hazards) where said.insert(h).inserted { out += "\(e.policySet): hazard: \(h)\n" }
        }
        return out
    }

    /// "rejects on Android API 34-37: the path ends at CN=Root YE and no pin matches a certificate of it".
    public static func words(_ p: VersionVerdict) -> String {
        SituationWords.sentence(p)
    }
}
