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
}
