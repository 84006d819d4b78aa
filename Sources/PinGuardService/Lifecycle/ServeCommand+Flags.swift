import PinGuardCore

extension ServeCommand.Options {
    /// A flag of `serve` given a value it does not take: the one line to print.
    public struct FlagError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Takes `--shard`, `--replica`, `--vantage`, `--log.level` and `--log.format` as given on the command line;
    /// throws the first that is not valid, naming the flag, the value and what it takes.
    public mutating func take(shard: String?, replica: String?, vantage: String?, logLevel: String,
                              logFormat: String) throws(FlagError) {
        if let shard {
            guard let parsed = TargetShard(shard) else { throw FlagError(description: "--shard \"\(shard)\" is not I/N with 0 <= I < N (e.g. 0/3)") }
            self.shard = parsed
        }
        guard let level = LogLevel(rawValue: logLevel) else {
            throw FlagError(description: "--log.level \"\(logLevel)\" is not one of debug, info, warn, error")
        }
        guard let format = LogFormat(rawValue: logFormat) else {
            throw FlagError(description: "--log.format \"\(logFormat)\" is not one of plain, logfmt, json")
        }
        log = LogSettings(level: level, format: format)
        for (flag, value) in [("--replica", replica), ("--vantage", vantage)] {
            if let value, !InstanceLabels.isValid(value) {
                throw FlagError(description: "\(flag) \"\(value)\" is not 1 to 63 letters, digits, \".\", \"_\" or \"-\"")
            }
        }
        instance = InstanceLabels(replica: replica ?? "", vantage: vantage ?? "")
    }

    /// Takes the `--web.*` flags as given on the command line; throws the first that is not valid, naming the flag,
    /// the value and what it takes.
    public mutating func takeEndpoint(enableLifecycle: Bool, webConfigFile: String?, readHeaderTimeout: String,
                                      writeTimeout: String, maxConnectionsPerClient: Int) throws(FlagError) {
        var o = HTTPEndpointOptions()
        o.enableLifecycle = enableLifecycle
        o.webConfigFile = webConfigFile
        for (name, text, keyPath) in [("--web.read-header-timeout", readHeaderTimeout, \HTTPEndpointOptions.readHeaderTimeout),
                                      ("--web.write-timeout", writeTimeout, \HTTPEndpointOptions.writeTimeout)] {
            guard let seconds = PromDuration.parse(text), seconds > 0 else {
                throw FlagError(description: "\(name) \"\(text)\" is not a duration (use e.g. 500ms, 10s, 1m)")
            }
            o[keyPath: keyPath] = seconds
        }
        guard maxConnectionsPerClient >= 0 else {
            throw FlagError(description: "--web.max-connections-per-client \(maxConnectionsPerClient) is negative (0 means no cap)")
        }
        o.maxConnectionsPerClient = maxConnectionsPerClient
        endpoint = o
    }
}
