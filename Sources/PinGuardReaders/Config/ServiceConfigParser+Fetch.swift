import PinGuardCore

extension ServiceConfigParser {
    /// `fetch: {networks: [CIDR...], ca_file: FILE, timeout: DURATION}`: how pinguard downloads what the
    /// authorities publish. Without `networks` only public unicast addresses are reached.
    static func fetch(_ v: YAMLValue, into c: inout ServiceConfig) throws(ConfigError) {
        let m = try v.mapping(allowed: ["networks", "ca_file", "timeout"])
        if let nv = m["networks"], !nv.isNull {
            let networks = try nv.sequence().map { item throws(ConfigError) in
                let text = try item.nonEmptyString()
                guard let n = IPNetwork(text) else {
                    throw item.error("\(EchoedInput.quoted(text)) is not an address or network (CIDR)")
                }
                return n
            }
            guard !networks.isEmpty else { throw nv.error("is empty: list the networks fetches may reach, or leave it out") }
            c.fetch.networks = networks
        }
        if let f = m["ca_file"], !f.isNull {
            c.fetch.caFile = try f.nonEmptyString()
            c.lines[f.path] = f.line
        }
        if let t = m["timeout"] { c.fetch.timeout = try t.duration(max: 600) }
    }
}
