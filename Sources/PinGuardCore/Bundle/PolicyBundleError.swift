/// Why a policy bundle is not accepted, as a client verifying it would conclude.
public struct PolicyBundleError: Error, Sendable, Equatable {
    /// The class of failure (label `status`).
    public var status: PolicyBundleState
    /// One line naming the cause.
    public var message: String

    /// Creates an error.
    public init(_ status: PolicyBundleState, _ message: String) {
        self.status = status
        self.message = message
    }
}
