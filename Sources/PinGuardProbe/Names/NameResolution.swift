import PinGuardCore

/// Name resolution for callers other than a probe (the guarded fetcher): the same bounded resolver, the
/// same hosts-file answers, every address in the stable order so that each can be checked before dialling.
public enum NameResolution {
    /// Every address of `host` (a name or an address literal) within `timeout` seconds. Blocking: call it
    /// from a thread that may block.
    public static func addresses(of host: String, port: Int, timeout: Double,
                                 cancelled: @escaping @Sendable () -> Bool = { false }) -> ResolvedTarget {
        let request = ProbeRequest(host: host, port: port, timeout: timeout, resolve: .all, maxAddresses: Target.maxAddressesLimit)
        return Resolver.resolve(request, deadline: Deadline(seconds: timeout, cancelled: cancelled))
    }
}
