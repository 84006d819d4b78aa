import Foundation

/// One structured journal event (docs/reference.md, Journal events): the event, a human message and its `PINGUARD_*` fields.
public struct JournalEntry: Sendable, Equatable {
    /// The event type; gives `MESSAGE_ID`, `PINGUARD_EVENT` and the default priority.
    public var event: JournalEvent
    /// Human-readable `MESSAGE`.
    public var message: String
    /// Extra fields, e.g. `PINGUARD_TARGET`, in a stable order.
    public var fields: [(String, String)]

    /// Creates an entry; its fields are among those the event declares (checked in debug builds).
    public init(event: JournalEvent, message: String, fields: [(String, String)] = []) {
        assert(fields.allSatisfy { event.declaration.fields.names.contains($0.0) },
               "\(event.rawValue) carries undeclared fields \(fields.map(\.0).filter { !event.declaration.fields.names.contains($0) })")
        self.event = event
        self.message = message
        self.fields = fields
    }

    /// Every field sent to journald, `MESSAGE` and identifiers included.
    public var allFields: [(String, String)] {
        [("MESSAGE", message), ("MESSAGE_ID", event.messageID), ("PRIORITY", String(event.priority)),
         ("SYSLOG_IDENTIFIER", "pinguard"), ("PINGUARD_EVENT", event.rawValue)] + fields
    }

    /// Value of a field, for tests and stderr logging.
    public func field(_ name: String) -> String? { allFields.first { $0.0 == name }?.1 }

    /// Equal when event, message and fields are equal.
    public static func == (a: JournalEntry, b: JournalEntry) -> Bool {
        a.event == b.event && a.message == b.message && a.fields.map { $0.0 + "=" + $0.1 } == b.fields.map { $0.0 + "=" + $0.1 }
    }

    /// `config_loaded`.
    public static func configLoaded(path: String, targets: Int, policySets: [String]) -> JournalEntry {
        JournalEntry(event: .configLoaded,
                     message: "configuration \(path) loaded: \(targets) targets, policy sets \(policySets.joined(separator: ", "))",
                     fields: [("PINGUARD_CONFIG", path), ("PINGUARD_TARGETS", String(targets))])
    }

    /// `config_invalid`: the previous configuration stays in force.
    public static func configInvalid(path: String, error: String) -> JournalEntry {
        JournalEntry(event: .configInvalid, message: "configuration rejected, previous one kept: \(error)",
                     fields: [("PINGUARD_CONFIG", path), ("PINGUARD_ERROR", error)])
    }
}
