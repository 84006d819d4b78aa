/// What one run of a command produced, in the order it produced it: text for standard output, lines for
/// standard error, and the exit status (docs/reference.md, Commands and exit codes). The `pinguard`
/// executable writes it out and exits with the status; a test reads it.
public struct CommandOutcome: Sendable, Equatable {
    /// One piece of output.
    public enum Piece: Sendable, Equatable {
        /// Text for standard output, written as it is.
        case stdout(String)
        /// One line for standard error, without its newline.
        case stderr(String)
    }

    /// Everything the command wrote, in order (the order matters when both streams go to one terminal).
    public var pieces: [Piece]
    /// The exit status: 0, ``CommandStatus/rejected`` or ``CommandStatus/configuration``.
    public var status: Int32

    /// Everything for standard output.
    public var stdout: String {
        pieces.reduce(into: "") { text, piece in if case .stdout(let t) = piece { text += t } }
    }

    /// The lines for standard error.
    public var stderr: [String] {
        pieces.compactMap { if case .stderr(let line) = $0 { line } else { nil } }
    }
}

/// Exit statuses shared by the commands (docs/reference.md, Commands and exit codes); usage errors (64)
/// are the argument parser's and never come from here.
public enum CommandStatus {
    /// Everything accepted.
    public static let ok: Int32 = 0
    /// A client rejects, a finding is an error, nothing is found: the answer is no.
    public static let rejected: Int32 = 1
    /// The input cannot be used: a file that does not read, a configuration that does not load.
    public static let configuration: Int32 = 2
}

/// Ends a command early with `status`; what it wrote before stays in its outcome.
struct CommandStop: Error {
    var status: Int32
}

/// The outcome of a command as it is being written.
struct CommandOutput {
    private(set) var pieces: [CommandOutcome.Piece] = []

    /// Text for standard output, as it is.
    mutating func write(_ text: String) { pieces.append(.stdout(text)) }

    /// One line for standard error.
    mutating func error(_ line: String) { pieces.append(.stderr(line)) }

    /// `line` on standard error, and the stop that ends the command with `status`.
    mutating func fail(_ line: String, status: Int32 = CommandStatus.configuration) -> CommandStop {
        error(line)
        return CommandStop(status: status)
    }

    /// The outcome, ending with `status`.
    func outcome(_ status: Int32) -> CommandOutcome { CommandOutcome(pieces: pieces, status: status) }
}

/// One run of a command: its options, the output it writes, and the work that returns its status.
protocol CommandRun {
    /// The output written so far.
    var out: CommandOutput { get set }
    /// The command's work; a stop ends it early with the stop's status.
    mutating func perform() throws(CommandStop) -> Int32
}

extension CommandRun {
    /// Performs the run and returns everything it wrote with its status.
    mutating func outcome() -> CommandOutcome {
        do throws(CommandStop) {
            let status = try perform()
            return out.outcome(status)
        } catch {
            return out.outcome(error.status)
        }
    }
}

/// A run whose work awaits (a probe that asks the network beyond the handshake).
protocol AsyncCommandRun {
    /// The output written so far.
    var out: CommandOutput { get set }
    /// The command's work; a stop ends it early with the stop's status.
    mutating func perform() async throws(CommandStop) -> Int32
}

extension AsyncCommandRun {
    /// Performs the run and returns everything it wrote with its status.
    mutating func outcome() async -> CommandOutcome {
        do throws(CommandStop) {
            let status = try await perform()
            return out.outcome(status)
        } catch {
            return out.outcome(error.status)
        }
    }
}
