import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe

/// Judges the certificate files of `files:` like served chains: each file matched by an entry's path is
/// read (at most 1 MiB), verified for the entry's host against the trust store or `trust.ca_file` at
/// `now` (OpenSSL, as a client would when the chain is served), and evaluated against the policy sets.
enum FileTargetJudge {
    /// One result per matched file (named by its path); an entry matching no file gives one failed result
    /// named by its pattern.
    /// - Parameter keyring: the CT log keys the leaves' embedded SCTs are checked with (nil: not read).
    /// - Parameter clientPaths: the judge of the clients' own paths (nil: OpenSSL's one path for every set).
    static func judge(_ config: ServiceConfig, sets: [PolicySet], keyring: CTLogKeyring?, clientPaths: ClientPathJudge? = nil,
                      now: Date) -> [TargetResult] {
        var out: [TargetResult] = []
        let judge = Judge(sets: sets, ct: config.ct)
        for entry in config.files {
            let matches = ConfigurationLoader.expand(entry.path)
            if matches.isEmpty {
                let facts = ProbeFacts(host: entry.host, port: 443, error: "no file matches \(entry.path)", finishedAt: now)
                out.append(judge.judge(facts, target: entry.target(file: entry.path), now: now))
                continue
            }
            for file in matches {
                let facts: ProbeFacts
                do {
                    facts = try CandidateChainVerifier.verify([(try ClientIdentity.read(file), file)], host: entry.host,
                                                              caFile: config.caFile, at: now, ctLogs: keyring,
                                                              clientPaths: clientPaths)
                } catch {
                    facts = ProbeFacts(host: entry.host, port: 443, error: "\(error)", finishedAt: now)
                }
                out.append(judge.judge(facts, target: entry.target(file: file), now: now))
            }
        }
        return out
    }
}
