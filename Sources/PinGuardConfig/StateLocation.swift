import PinGuardCore

/// Where the memory of served chains lives, first that applies: `state.url` (a PostgreSQL database several
/// instances share) or `state.path` in the configuration;
/// `$STATE_DIRECTORY/state.db` when systemd sets it (`StateDirectory=pinguard`); otherwise memory only.
/// (The demo writes `state.path` into its own configuration, so its state lives in its folder.)
///
/// `serve`, `check-config`, `history` and `plan` all call ``resolve(_:environment:)``, so a command run by
/// hand finds the file the service writes whenever it sees what the service sees.
public enum StateLocation: Sendable, Equatable {
    /// The state file.
    case file(String)
    /// The shared PostgreSQL database at this URL (`state.url`).
    case database(url: String)
    /// Nothing is written; `reason` says why.
    case memoryOnly(reason: String)

    /// The state folder of the shipped unit (`StateDirectory=pinguard`), named in ``serviceHint``.
    public static let serviceStateDirectory = "/var/lib/pinguard"

    /// The location for `config` in an environment with `environment`'s variables.
    public static func resolve(_ config: ServiceConfig, environment: [String: String]) -> StateLocation {
        if let url = config.stateURL { return .database(url: url) }
        if let path = config.statePath { return .file(path) }
        // systemd joins several StateDirectory= entries with ":"; pinguard's unit names one.
        if let dirs = environment["STATE_DIRECTORY"], let first = dirs.split(separator: ":").first, !first.isEmpty {
            return .file(first.hasSuffix("/") ? "\(first)state.db" : "\(first)/state.db")
        }
        return .memoryOnly(reason: "no state.path in the configuration and no $STATE_DIRECTORY")
    }

    /// For a command run outside the service when the location is memory only: where `serve` under the
    /// shipped unit keeps the file (systemd sets `$STATE_DIRECTORY` for the service, not for a shell), and
    /// how to make the command see it. Nil when the location is a file.
    public var serviceHint: String? {
        guard case .memoryOnly = self else { return nil }
        let dir = Self.serviceStateDirectory
        return "pinguard.service keeps its state in $STATE_DIRECTORY/state.db (StateDirectory=pinguard: "
            + "\(dir)/state.db), which systemd sets for the service only; set state: {path: \(dir)/state.db} "
            + "in the configuration, or run the command with STATE_DIRECTORY=\(dir)"
    }

    /// One line for `check-config` and the start-up log.
    public var summary: String { summary(unavailable: nil) }

    /// One line for `check-config` and the start-up log, for a state file that cannot be used because of
    /// `cause` (as `state_unavailable` names it), or nil when it can.
    public func summary(unavailable cause: String?) -> String {
        switch self {
        case .file(let path):
            guard let cause else { return "served chains are remembered in \(path)" }
            return "served chains are remembered in memory only: \(cause) (state_unavailable)"
        case .database(let url):
            let shown = DatabaseURL.redacted(url)
            guard let cause else { return "served chains are remembered in the shared database \(shown)" }
            return "the shared database \(shown) cannot be used: \(cause)"
        case .memoryOnly(let reason): return "served chains are remembered in memory only (\(reason))"
        }
    }
}

extension StateLocation {
    /// What events and messages name as where the memory is written: the file, or the database's URL without
    /// password; nil when nothing is written.
    public var written: String? {
        switch self {
        case .file(let path): path
        case .database(let url): DatabaseURL.redacted(url)
        case .memoryOnly: nil
        }
    }
}
