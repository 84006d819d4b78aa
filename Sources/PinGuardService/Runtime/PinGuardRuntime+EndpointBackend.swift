/// The runtime serves the HTTP endpoint with its own `snapshot()`, `isReady` and `reload(trigger:)`.
extension PinGuardRuntime: EndpointBackend {}
