import Foundation

/// `pinguard.yml` files for tests of the HTTP endpoint, which need no TLS targets of their own.
public enum EndpointConfigs {
    /// A config whose /metrics is several megabytes (1,500 failed probes judged by 20 policy sets), more than
    /// socket buffers hold, so that a client that does not read really stalls its response. No TLS server is
    /// needed: every target is a closed loopback port.
    public static func largeExposition(in dir: URL) throws -> String {
        for s in 0..<20 {
            let pins = (0..<3).map { i in
                PinSpec.spki(Data(repeating: UInt8(s * 3 + i + 1), count: 32).base64EncodedString(), role: i == 0 ? "primary" : "backup")
            }
            try PolicyYAML.write(PolicyYAML.policySet(name: "wide-\(s)", rules: [HostPolicySpec(pattern: "**.pinguard.test", pins: pins)]),
                                 to: dir, as: "wide/wide-\(s).yml")
        }
        let closedPort = LoopbackPorts.closed()
        let padding = String(repeating: "x", count: 120)
        var y = """
        listen: "127.0.0.1:0"
        interval: 1h
        timeout: 1s
        concurrency: 64
        environment: prod
        policies: ["wide/*.yml"]
        journal: {enabled: false}
        targets:

        """
        for i in 0..<1_500 {
            y += "  - {name: t\(i)-\(padding), host: t\(i).pinguard.test, port: \(closedPort), connect: 127.0.0.1}\n"
        }
        return try PolicyYAML.write(y, to: dir, as: "pinguard.yml")
    }

    /// A config with one target (a closed port) probed every hour: /metrics is small and ready at once.
    public static func small(in dir: URL) throws -> String {
        try PolicyYAML.write(PolicyYAML.policySet(name: "one", rules: [HostPolicySpec(
            pattern: "**.pinguard.test",
            pins: [.spki(Data(repeating: 1, count: 32).base64EncodedString(), role: "primary"),
                   .spki(Data(repeating: 2, count: 32).base64EncodedString(), role: "backup")])]),
            to: dir, as: "policies/one.yml")
        let y = """
        listen: "127.0.0.1:0"
        interval: 1h
        timeout: 1s
        environment: prod
        policies: ["policies/*.yml"]
        journal: {enabled: false}
        targets:
          - {name: down, host: down.pinguard.test, port: \(LoopbackPorts.closed()), connect: 127.0.0.1}

        """
        return try PolicyYAML.write(y, to: dir, as: "pinguard.yml")
    }
}
