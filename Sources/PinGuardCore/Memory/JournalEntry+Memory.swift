import Foundation

extension JournalEntry {
    /// `certificate_renewed`: a target's first address to serve a new leaf, against the leaf it served before.
    public static func certificateRenewed(_ target: Target, address: String, from old: ServedChain, to new: ServedChain,
                                          keyReused: Bool, issuerChanged: Bool) -> JournalEntry {
        let notAfter = RFC3339.format(Date(timeIntervalSince1970: TimeInterval(new.notAfter)))
        let key = keyReused ? "key kept" : "new key"
        let issuer = issuerChanged ? "issuer \(old.issuerName) -> \(new.issuerName)" : "issuer \(new.issuerName)"
        return JournalEntry(
            event: .certificateRenewed,
            message: "\(target.name): certificate renewed, \(key), \(issuer), notAfter \(notAfter.prefix(10))",
            fields: Self.memoryTargetFields(target) + [
                ("PINGUARD_ADDRESS", address), ("PINGUARD_KEY_REUSED", keyReused ? "yes" : "no"),
                ("PINGUARD_ISSUER_CHANGED", issuerChanged ? "yes" : "no"), ("PINGUARD_OLD_SERIAL", old.leafSerial),
                ("PINGUARD_NEW_SERIAL", new.leafSerial), ("PINGUARD_NOT_AFTER", notAfter),
                ("PINGUARD_LEAF_SPKI_SHA256", new.leafSPKISHA256.base64), ("PINGUARD_OLD_ISSUER", old.issuerSubject),
                ("PINGUARD_ISSUER", new.issuerSubject),
            ])
    }

    /// `chain_rollback`: an address went back to a leaf older than the one it served last.
    public static func chainRollback(_ target: Target, address: String, to older: ServedChain, from newer: ServedChain) -> JournalEntry {
        let to = RFC3339.format(Date(timeIntervalSince1970: TimeInterval(older.notAfter)))
        let from = RFC3339.format(Date(timeIntervalSince1970: TimeInterval(newer.notAfter)))
        return JournalEntry(
            event: .chainRollback,
            message: "\(target.name): \(address) went back to an older certificate (serial \(older.leafSerial), notAfter \(to.prefix(10))) from serial \(newer.leafSerial) (notAfter \(from.prefix(10)))",
            fields: Self.memoryTargetFields(target) + [
                ("PINGUARD_ADDRESS", address), ("PINGUARD_OLD_SERIAL", newer.leafSerial), ("PINGUARD_NEW_SERIAL", older.leafSerial),
                ("PINGUARD_NOT_AFTER", to), ("PINGUARD_LEAF_SPKI_SHA256", older.leafSPKISHA256.base64),
            ])
    }

    /// `state_not_persisted`: the memory of served chains lives in memory only, and why.
    public static func stateNotPersisted(_ why: String) -> JournalEntry {
        JournalEntry(event: .stateNotPersisted,
                     message: "served chains are remembered in memory only (\(why)); renewals before a restart are forgotten",
                     fields: [("PINGUARD_REASON", why)])
    }

    /// `state_unavailable`: the state file cannot be used now; nothing in it is changed.
    public static func stateUnavailable(path: String, error: String) -> JournalEntry {
        JournalEntry(event: .stateUnavailable, message: "\(storeKind(path)) unavailable, remembering in memory until it is back: \(error)",
                     fields: [("PINGUARD_STATE_FILE", path), ("PINGUARD_ERROR", error)])
    }

    /// `state_recovered`: the state file is written again.
    public static func stateRecovered(path: String) -> JournalEntry {
        JournalEntry(event: .stateRecovered, message: "\(storeKind(path)) \(path) is written again", fields: [("PINGUARD_STATE_FILE", path)])
    }

    /// "state database" for a shared database's URL, else "state file".
    private static func storeKind(_ path: String) -> String {
        path.hasPrefix("postgresql://") || path.hasPrefix("postgres://") ? "state database" : "state file"
    }

    static func memoryTargetFields(_ t: Target) -> [(String, String)] {
        [("PINGUARD_TARGET", t.name), ("PINGUARD_HOST", t.host), ("PINGUARD_PORT", String(t.port))]
    }
}
