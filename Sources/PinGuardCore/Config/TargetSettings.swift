/// The settings of one `Target`, shared by its copies until one is changed. Unchecked `Sendable`: a value
/// changes them only while it holds them alone (`Target.unique()`), so shared settings are never written.
final class TargetSettings: @unchecked Sendable {
    var host: String
    var port: Int
    var connect: [String]
    var resolve: ResolveMode
    var maxAddresses: Int
    var environment: String
    var name: String
    var policySets: [String]?
    var clientIdentity: ClientIdentitySource?
    var labels: [String: String] = [:]
    var renewal: RenewalSettings?

    init(host: String, port: Int, connect: [String], resolve: ResolveMode, maxAddresses: Int, environment: String, name: String,
         policySets: [String]?) {
        self.host = host
        self.port = port
        self.connect = connect
        self.resolve = resolve
        self.maxAddresses = maxAddresses
        self.environment = environment
        self.name = name
        self.policySets = policySets
    }

    /// A copy to change.
    func copy() -> TargetSettings {
        let c = TargetSettings(host: host, port: port, connect: connect, resolve: resolve, maxAddresses: maxAddresses,
                               environment: environment, name: name, policySets: policySets)
        c.clientIdentity = clientIdentity
        c.labels = labels
        c.renewal = renewal
        return c
    }

    /// Whether every setting equals `other`'s.
    func same(as o: TargetSettings) -> Bool {
        host == o.host && port == o.port && connect == o.connect && resolve == o.resolve && maxAddresses == o.maxAddresses
            && environment == o.environment && name == o.name && policySets == o.policySets
            && clientIdentity == o.clientIdentity && labels == o.labels && renewal == o.renewal
    }
}
