/// The `PINGUARD_*` fields an event's entries may carry (docs/reference.md, Journal events): one of the field
/// groups and the event's own fields. An entry carries no field outside them.
public struct JournalFields: Sendable, Equatable {
    /// The field group, as the reference names it: T (target), A (address), L (leaf), E (evaluation).
    public enum Group: String, Sendable, CaseIterable {
        /// No group: the event's own fields only.
        case none = "-"
        /// T: `PINGUARD_TARGET`, `PINGUARD_HOST`, `PINGUARD_PORT`.
        case target = "T"
        /// A: T and `PINGUARD_ADDRESS`.
        case address = "A"
        /// L: A and `PINGUARD_LEAF_SPKI_SHA256`.
        case leaf = "L"
        /// E: L and the set's decision: policy set, environment, reason, verdict, pins, days.
        case evaluation = "E"

        /// The fields of the group.
        public var names: [String] {
            switch self {
            case .none: return []
            case .target: return ["PINGUARD_TARGET", "PINGUARD_HOST", "PINGUARD_PORT"]
            case .address: return Group.target.names + ["PINGUARD_ADDRESS"]
            case .leaf: return Group.address.names + ["PINGUARD_LEAF_SPKI_SHA256"]
            case .evaluation:
                return Group.leaf.names + ["PINGUARD_POLICY_SET", "PINGUARD_ENVIRONMENT", "PINGUARD_REASON", "PINGUARD_VERDICT",
                                           "PINGUARD_MATCHED_PINS", "PINGUARD_RESERVE_PINS", "PINGUARD_DAYS_TO_EXPIRY",
                                           "PINGUARD_DAYS_TO_PIN_BREAKAGE"]
            }
        }
    }

    /// The group.
    public let group: Group
    /// The event's own fields.
    public let own: [String]

    /// Every field an entry of the event may carry.
    public var names: Set<String> { Set(group.names + own) }

    static func none(_ own: String...) -> JournalFields { JournalFields(group: .none, own: own) }
    static func target(_ own: String...) -> JournalFields { JournalFields(group: .target, own: own) }
    static func address(_ own: String...) -> JournalFields { JournalFields(group: .address, own: own) }
    static func leaf(_ own: String...) -> JournalFields { JournalFields(group: .leaf, own: own) }
    static func evaluation(_ own: String...) -> JournalFields { JournalFields(group: .evaluation, own: own) }
}
