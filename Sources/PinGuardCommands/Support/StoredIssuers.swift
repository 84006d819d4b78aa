import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardState

/// The issuers Chrome and Apple download, for the commands that download nothing (`plan`, `lint --chain`): with
/// `--config` and its state store they judge with the caIssuers responses that `serve` downloaded and kept there, so
/// a path through a downloaded issuer is judged as the service judged it. The other halves: PinGuardService/Issuers
/// (the downloads and the copies kept), PinGuardCrypto/ClientPaths (FetchedIssuers, PathSearch+Fetched).
enum StoredIssuers {
    /// `loaded`'s state store (a file or a database), opened read-only without disturbing a running `serve`, with
    /// the history of the targets `keep` names; nil when it names none or it cannot be opened.
    static func openState(_ loaded: LoadedConfiguration, environment: [String: String], keep: (String) -> Bool) -> StateStore? {
        switch StateLocation.resolve(loaded.config, environment: environment) {
        case .file(let path): return FileManager.default.fileExists(atPath: path) ? try? StateStore.open(path: path, readOnly: true) : nil
        case .database(let url): return try? StateStore.open(database: url, readOnly: true, keep: keep)
        case .memoryOnly: return nil
        }
    }

    /// Lets `judge` take downloaded issuers from what `documents` holds; the issuers to record them in, or nil
    /// without a store or a judge.
    static func attach(to judge: ClientPathJudge?, documents: (any FetchedDocumentStore)?) -> FetchedIssuers? {
        guard let judge, documents != nil else { return nil }
        let issuers = FetchedIssuers()
        judge.fetchIssuers(from: issuers)
        return issuers
    }

    /// `facts` judged again with the stored copies of the caIssuers URLs its client paths wait for, one issuer
    /// further up each time (at most `TargetProbe.maxIssuerDepth`); a URL without a stored copy stays one "pinguard
    /// has not downloaded yet", as in a round before its download.
    static func judged<Failure: Error>(_ facts: ProbeFacts, documents: (any FetchedDocumentStore)?, issuers: FetchedIssuers?, at time: Date,
                                       again: () throws(Failure) -> ProbeFacts) throws(Failure) -> ProbeFacts {
        guard let documents, let issuers else { return facts }
        var facts = facts
        for _ in 0..<TargetProbe.maxIssuerDepth {
            let copies = facts.clientPaths.pendingIssuers.compactMap { url in documents.document(url: url).map { (url, $0.body) } }
            // Every copy is recorded, none left for later: the search takes them all at once, as after a round.
            let recorded = copies.filter { issuers.record($0.0, body: $0.1, at: time) }
            guard !recorded.isEmpty else { break }
            facts = try again()
        }
        return facts
    }
}
