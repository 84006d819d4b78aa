/// The names and address a verification checks the leaf against (`SSL_set1_host`, the IP of a literal):
/// the only inputs of OpenSSL's chain verification that do not come from the chain, the trust store, the
/// time or the fixed parameters.
package struct CheckedIdentity: Equatable, Sendable {
    /// Host names; the leaf must match one of them.
    var hosts: [String] = []
    /// An IP address the leaf must name, as text.
    var ip: String?

    /// The names and address checked.
    package init(hosts: [String] = [], ip: String? = nil) {
        self.hosts = hosts
        self.ip = ip
    }
}
