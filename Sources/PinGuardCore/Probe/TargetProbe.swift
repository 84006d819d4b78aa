import Foundation

/// Everything one probe of a target learned: how its name resolved and what each probed address served.
public struct TargetProbe: Sendable, Equatable {
    /// The resolution of the name or `connect` list.
    public var resolution: AddressResolution
    /// One probe per address, in resolution order. Never empty: a name that did not resolve gives one
    /// failed probe carrying the resolution error and no address.
    public var nodes: [ProbeFacts]

    /// Creates a target probe; an empty `nodes` list is replaced by one failure naming the resolution error.
    public init(resolution: AddressResolution, nodes: [ProbeFacts], host: String, port: Int, at: Date) {
        self.resolution = resolution
        self.nodes = nodes.isEmpty
            ? [ProbeFacts(host: host, port: port, error: resolution.error ?? "no address to probe", finishedAt: at)]
            : nodes
    }

    /// A probe of one address (or of a target whose resolution is not known separately).
    public init(single facts: ProbeFacts) {
        resolution = AddressResolution(addresses: facts.address.map { [$0] } ?? [])
        nodes = [facts]
    }
}
