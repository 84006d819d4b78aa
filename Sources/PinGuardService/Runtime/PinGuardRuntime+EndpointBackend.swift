import PinGuardCore

/// The runtime serves the HTTP endpoint with its own `snapshot()`, `isReady`, `reload(trigger:)` and results.
extension PinGuardRuntime: EndpointBackend {
    /// The latest result of `name` from the store, and the memory's facts of it.
    public func target(named name: String) -> (result: TargetResult, memory: TargetMemoryFacts?)? {
        guard let r = store.result(named: name) else { return nil }
        return (r, memory.facts(of: name))
    }
}
