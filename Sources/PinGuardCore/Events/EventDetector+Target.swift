import Foundation

/// The events of a target as a whole: its resolution, its address set and whether its addresses agree.
extension EventDetector {
    /// `resolution_failed` once when a name that resolved stops resolving; the address memory is emptied.
    static func reportResolutionFailure(_ t: Target, _ error: String, base: EventFields, memory m: inout TargetMemory,
                                        into out: inout [JournalEntry]) {
        if m.addresses != [] {
            out.append(JournalEntry(event: .resolutionFailed, message: "\(t.name): no address to probe: \(error)",
                                    fields: base + [("PINGUARD_ERROR", error),
                                                    ("PINGUARD_PREVIOUS_ADDRESSES", (m.addresses ?? []).joined(separator: ","))]))
        }
        m.addresses = []
    }

    /// `address_set_changed` when the resolved addresses differ from the last ones (not at the first observation).
    static func reportAddressSetChange(_ t: Target, _ now: [String], base: EventFields, memory m: inout TargetMemory,
                                       into out: inout [JournalEntry]) {
        defer { m.addresses = now }
        guard let old = m.addresses, old != now else { return }
        let added = now.filter { !old.contains($0) }, removed = old.filter { !now.contains($0) }
        var what: [String] = []
        if old.isEmpty { what.append("resolves again") }
        if !added.isEmpty { what.append("added \(added.joined(separator: ", "))") }
        if !removed.isEmpty { what.append("removed \(removed.joined(separator: ", "))") }
        if added.isEmpty && removed.isEmpty { what.append("order changed") }
        out.append(JournalEntry(event: .addressSetChanged,
                                message: "\(t.name): address set changed: \(what.joined(separator: "; ")) (now \(now.count))",
                                fields: base + [("PINGUARD_ADDRESSES", now.joined(separator: ",")),
                                                ("PINGUARD_PREVIOUS_ADDRESSES", old.joined(separator: ","))]))
    }

    /// `addresses_over_limit` once when the name resolves to more addresses than `max_addresses` probes.
    static func reportAddressesOverLimit(_ t: Target, _ resolution: AddressResolution, base: EventFields,
                                         memory m: inout TargetMemory, into out: inout [JournalEntry]) {
        let overLimit = resolution.skipped > 0
        defer { m.overLimit = overLimit }
        guard overLimit && m.overLimit != true else { return }
        let count = resolution.addresses.count
        out.append(JournalEntry(event: .addressesOverLimit,
                                message: "\(t.name): \(t.host) has \(count) addresses; \(t.maxAddresses) probed (max_addresses), \(resolution.skipped) not",
                                fields: base + [("PINGUARD_ADDRESS_COUNT", String(count)),
                                                ("PINGUARD_MAX_ADDRESSES", String(t.maxAddresses))]))
    }

    /// `chain_divergence` when the addresses start to serve different chains, or differ in another way.
    static func reportChainDivergence(_ result: TargetResult, base: EventFields, memory m: inout TargetMemory,
                                      into out: inout [JournalEntry]) {
        let divergence = Self.divergence(result)
        defer { m.divergence = divergence?.key }
        guard let divergence, m.divergence != divergence.key else { return }
        out.append(JournalEntry(event: .chainDivergence, message: "\(result.target.name): \(divergence.message)",
                                fields: base + divergence.fields))
    }

    /// Each address on its own, against its own memory; the memory of addresses no longer resolved goes.
    func reportNodes(_ result: TargetResult, base: EventFields, memory m: inout TargetMemory, into out: inout [JournalEntry]) {
        let t = result.target
        // By index, each address's result read in place: iterating would copy every one.
        for k in result.nodes.indices {
            let address = result.nodes[k].address
            let i = m.node(address, hint: k)
            out += observe(result.nodes[k], of: t, base: base.at(address),
                           who: result.nodes.count > 1 ? "\(t.name) (\(address))" : t.name, memory: &m.nodes[i])
        }
        // Forgetting is rare (an address went away): nothing is rebuilt otherwise.
        if m.nodes.count != result.nodes.count {
            m.nodes.removeAll { n in !result.nodes.contains { $0.address == n.address } }
        }
    }
}
