import Foundation
@testable import PinGuardCore

/// Logs, lists and SCTs in memory for the CT policy tables.
enum CTFixtures {
    static let now = ResultFixtures.now
    static func day(_ n: Double) -> Date { ResultFixtures.day(n) }

    /// Log `n` of operator `op`, in `state` since day -400 (or `since`), RFC 6962 unless `tiled`.
    static func log(_ n: UInt8, op: String, state: CTLogState = .usable, since: Double = -400, tiled: Bool = false) -> CTLog {
        CTLog(logID: ResultFixtures.h(100 + n), key: "", description: "log \(n)", operatorName: op, state: state,
              stateSince: day(since), tiled: tiled)
    }

    /// Six usable logs: 1 and 2 of operator A, 3 and 4 of B, 5 of C, 6 of D (tiled).
    static let logs = [log(1, op: "A"), log(2, op: "A"), log(3, op: "B"), log(4, op: "B"), log(5, op: "C"),
                       log(6, op: "D", tiled: true)]

    static func list(_ name: CTLogListName, _ logs: [CTLog] = logs, publishedDaysAgo: Double = 10) -> CTLogList {
        CTLogList(name: name, version: "1", timestamp: day(-publishedDaysAgo), logs: logs, origin: "test")
    }

    static func lists(_ logs: [CTLog] = logs, chromeDaysAgo: Double = 10) -> [CTLogListName: CTLogList] {
        [.apple: list(.apple, logs), .chrome: list(.chrome, logs, publishedDaysAgo: chromeDaysAgo)]
    }

    /// An SCT of log `n` from `source`, issued on day -1 (or `at`).
    static func sct(_ n: UInt8, _ source: SCTSource = .embedded, _ status: SCTStatus = .valid, at: Double = -1) -> ObservedSCT {
        ObservedSCT(logID: ResultFixtures.h(100 + n), timestamp: day(at), source: source, status: status)
    }

    /// A leaf valid for exactly `lifetime` days from day -1.
    static func leaf(lifetime: Double) -> ChainCertificate {
        var c = ResultFixtures.cert(0, spki: 1, cert: 11, notAfter: lifetime - 1)
        c.notBefore = day(-1)
        return c
    }

    /// Each policy's compliance for `scts` on a leaf of `lifetime` days, in the order apple, chrome, android.
    static func verdicts(_ scts: [ObservedSCT], lifetime: Double = 90, lists: [CTLogListName: CTLogList] = lists()) -> [Bool] {
        let o = CTPolicy.judged(CTObservation(collected: true, scts: scts, publiclyAnchored: true), leaf: leaf(lifetime: lifetime),
                                lists: lists, now: now)
        return CTPolicyKind.allCases.map { o.judgements[$0]?.compliant ?? false }
    }

    static func reason(_ kind: CTPolicyKind, _ scts: [ObservedSCT], lifetime: Double = 90) -> String {
        let list = list(kind == .apple ? .apple : .chrome)
        return CTPolicy.judge(scts, leaf: leaf(lifetime: lifetime), list: list, rules: CTPolicy.rules(kind), now: now).reason
    }
}
