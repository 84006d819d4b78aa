import PinGuardCore

extension StateStore {
    /// Opens the shared PostgreSQL database at `url` and loads the targets `keep` accepts (this instance's
    /// shard) into memory. A writer creates or migrates the schema; a reader (`readOnly`) changes nothing.
    /// Either way, a schema newer than this pinguard's (`.newerSchema`) or a value pinguard never writes
    /// (`.corrupt`) is refused and never modified; a server that cannot be reached is `.ioError`.
    public static func open(database url: String, readOnly: Bool, lastSeenGranularity: Int64 = 3600,
                            keep: (String) -> Bool = { _ in true }) throws(StateError) -> StateStore {
        let (database, memory) = try StateDatabase.open(url: url, readOnly: readOnly, lastSeenGranularity: lastSeenGranularity,
                                                        keep: keep)
        if readOnly { database.close() }
        return StateStore(path: database.display, isReadOnly: readOnly, memory: memory, connection: nil, fileLock: nil,
                          database: readOnly ? nil : database)
    }

    /// Takes from the shared database the memory of `names` this store does not hold yet (targets a reload moved
    /// to this instance: a new shard, or new to its configuration), so they keep their history. Does nothing for
    /// a file or memory store; throws when the database cannot be read now (they then start without it).
    public func adopt(_ names: Set<String>) throws(StateError) {
        lock.lock()
        defer { lock.unlock() }
        guard let database, !isClosed else { return }
        try database.adopt(names, into: &memory)
    }

    /// Checks the database at `url` as `serve` would find it at start, changing nothing: nil when it can be used
    /// (a missing or older schema is created or migrated), else why not.
    public static func check(database url: String) -> StateError? {
        do {
            try open(database: url, readOnly: true, keep: { _ in false }).close()
            return nil
        } catch {
            return error.code == .olderSchema ? nil : error
        }
    }
}
