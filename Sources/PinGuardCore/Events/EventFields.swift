/// The journal fields every event of one target, or of one address of it, starts with: made only when an
/// event is written, since a reload observes every result again and almost none of them changed.
struct EventFields: Sendable {
    var name: String
    var host: String
    var port: Int
    /// The address (`ip:port`) of an address's events.
    var address: String?
    /// The served leaf's SPKI SHA-256, for the events of an address that served a chain.
    var leafSPKI: String?

    /// The fields of target `t`'s own events.
    init(_ t: Target) {
        (name, host, port) = (t.name, t.host, t.port)
    }

    /// These fields for the events of `address`.
    func at(_ address: String) -> EventFields {
        var f = self
        f.address = address
        return f
    }

    /// These fields for the events of an address that served `leafSPKI`.
    func serving(_ leafSPKI: String) -> EventFields {
        var f = self
        f.leafSPKI = leafSPKI
        return f
    }

    /// The fields, in journal order: target, host, port, then the address and the leaf when known.
    var list: [(String, String)] {
        var f = [("PINGUARD_TARGET", name), ("PINGUARD_HOST", host), ("PINGUARD_PORT", String(port))]
        if let address { f.append(("PINGUARD_ADDRESS", address)) }
        if let leafSPKI { f.append(("PINGUARD_LEAF_SPKI_SHA256", leafSPKI)) }
        return f
    }

    /// The fields followed by an event's own.
    static func + (lhs: EventFields, rhs: [(String, String)]) -> [(String, String)] { lhs.list + rhs }
}
