import PinGuardCore

/// The store's in-memory view of the state file: every target and chain, plus what changed since the
/// last successful commit. Observations and pruning change it at once; a commit writes the changes and
/// only then forgets them, so a failed commit's changes go out with the next one.
///
/// Targets sit in an array in row-id order (nil where one was deleted), found by name through one
/// dictionary; changes are tracked by slot, so a commit walks its changes without hashing a name.
struct StateMemory {
    private var slots: [TargetRecord?] = []
    private var slotByName: [String: Int] = [:]
    /// Slots with anything to write, each once (see `TargetRecord.isDirty`).
    private var dirtySlots: [Int] = []
    /// The next target row id.
    var nextTargetID: Int64 = 1
    /// The next chain row id.
    var nextChainID: Int64 = 1
    /// Target rows (and their chains) to delete.
    private(set) var deletedTargetIDs: Set<Int64> = []
    /// Chain rows to delete.
    private(set) var deletedChainIDs: Set<Int64> = []
    /// The target deletions by name, for the shared database (where rows have no ids of ours).
    private(set) var deletedTargetNames: [String] = []
    /// The chain deletions by target and identity, for the shared database.
    private(set) var deletedChains: [(target: String, chain: TargetRecord.DroppedChain)] = []
    /// How stale a chain's `last_seen` on disk may get while it is served unchanged.
    let lastSeenGranularity: Int64
    /// Issuing certificates' subjects, each held once (a fleet has a few issuers and 100,000 chains).
    private var subjects: [String: String] = [:]

    init(lastSeenGranularity: Int64) {
        self.lastSeenGranularity = lastSeenGranularity
    }

    /// The record of the target `name`, if known.
    subscript(name: String) -> TargetRecord? {
        slotByName[name].flatMap { slots[$0] }
    }

    /// The names of all targets.
    var names: Dictionary<String, Int>.Keys { slotByName.keys }

    /// Adds a target read from the file (in row-id order).
    mutating func insertLoaded(_ record: TargetRecord) {
        slotByName[record.name] = slots.count
        slots.append(record)
        nextTargetID = max(nextTargetID, record.id + 1)
    }

    /// Adds a chain read from the file to the target in `slot` (as returned by `slot(of:)`).
    mutating func appendLoaded(_ chain: StoredChain, id: Int64, toSlot slot: Int) {
        var chain = chain
        chain.chain.issuerSubject = subject(chain.chain.issuerSubject)
        slots[slot]?.append(chain, row: .init(id: id, persisted: true, lastSeenWritten: chain.lastSeen))
        nextChainID = max(nextChainID, id + 1)
    }

    /// The slot of the target `name`.
    func slot(of name: String) -> Int? {
        slotByName[name]
    }

    /// Classifies `chain` served by `name` at `address` at `now`, records it and returns the classification.
    mutating func observe(_ chain: ServedChain, target name: String, address: String,
                          now: Int64) -> RenewalClassification {
        var chain = chain
        chain.issuerSubject = subject(chain.issuerSubject)
        let slot = slotByName[name] ?? addTarget(name, now: now)
        // The slot exists: it was found by name or just added.
        let (classification, changed, dropped) = slots[slot]!.observe(chain, at: address, now: now,
                                                                      granularity: lastSeenGranularity,
                                                                      nextChainID: &nextChainID)
        deletedChainIDs.formUnion(dropped.map(\.id))
        deletedChains += dropped.map { (name, $0) }
        if changed { markDirty(slot) }
        return classification
    }

    /// Refreshes the configured time of every target in `configured` (written at most once per
    /// `lastSeenGranularity`) and deletes the targets not configured for longer than `retention` seconds;
    /// returns the deleted names, sorted.
    mutating func prune(configured: Set<String>, now: Int64, retention: Int64) -> [String] {
        var removed: [String] = []
        for slot in slots.indices {
            // Read the two fields in place, through the buffer: an element read from the array itself is copied
            // whole, which costs a reload of 100,000 targets a retain and release per chain of each.
            guard let (name, lastConfigured) = slots.withUnsafeBufferPointer({ b in b[slot].map { ($0.name, $0.lastConfigured) } })
            else { continue }
            if configured.contains(name) {
                guard now - lastConfigured >= lastSeenGranularity else { continue }
                slots[slot]!.lastConfigured = now
                slots[slot]!.needsWrite = true
                markDirty(slot)
            } else if now - lastConfigured > retention, let id = slots[slot]?.id {
                slots[slot] = nil
                slotByName[name] = nil
                deletedTargetIDs.insert(id)
                deletedTargetNames.append(name)
                removed.append(name)
            }
        }
        return removed.sorted()
    }

    /// What a commit would write now.
    var pending: StateCommit {
        var commit = StateCommit(targetsDeleted: deletedTargetIDs.count, chainsDeleted: deletedChainIDs.count)
        for record in dirtyRecords {
            if record.needsWrite { commit.targetsWritten += 1 }
            for row in record.rows {
                if !row.persisted { commit.chainsInserted += 1 } else if row.touchDue { commit.chainsTouched += 1 }
            }
        }
        return commit
    }

    /// The targets with something to write, in row-id order (so rows are appended in order on disk).
    var dirtyRecords: some Sequence<TargetRecord> {
        dirtySlots.sorted().lazy.compactMap { slots[$0] }
    }

    /// Forgets the pending changes once a commit has written them.
    mutating func markWritten() {
        for slot in dirtySlots { slots[slot]?.markWritten() }
        dirtySlots.removeAll()
        deletedTargetIDs.removeAll()
        deletedChainIDs.removeAll()
        deletedTargetNames.removeAll()
        deletedChains.removeAll()
    }

    /// `text` as the copy held before (at most 4,096 distinct subjects are kept).
    private mutating func subject(_ text: String) -> String {
        if let shared = subjects[text] { return shared }
        if subjects.count < 4_096 { subjects[text] = text }
        return text
    }

    private mutating func addTarget(_ name: String, now: Int64) -> Int {
        let slot = slots.count
        slots.append(TargetRecord(id: nextTargetID, name: name, lastConfigured: now, needsWrite: true))
        slotByName[name] = slot
        nextTargetID += 1
        return slot
    }

    private mutating func markDirty(_ slot: Int) {
        guard let record = slots[slot], !record.isDirty else { return }
        slots[slot]!.isDirty = true
        dirtySlots.append(slot)
    }
}
