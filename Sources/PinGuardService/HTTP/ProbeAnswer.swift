import PinGuardCore
import PinGuardReports
import PinGuardReaders

/// What `GET /probe` answers: the target's series, or a refusal with its status and reason.
public enum ProbeAnswer: Sendable {
    /// The exposition of the probed target's series.
    case metrics([[UInt8]])
    /// Not probed: HTTP status code and a one-line reason.
    case refused(Int, String)
    /// `debug=true`: the probe's log (`ProbeLog`).
    case log(String)
}
