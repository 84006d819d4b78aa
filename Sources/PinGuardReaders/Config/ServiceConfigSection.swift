import PinGuardCore

extension ServiceConfigParser {
    /// How one top-level key of `pinguard.yml` is read into the configuration.
    struct Section: Sendable {
        /// The key.
        let key: String
        /// Whether `key: null` (or an empty value) leaves the defaults.
        let nullIsDefault: Bool
        /// Reads the key's value.
        let read: @Sendable (YAMLValue, inout ServiceConfig) throws(ConfigError) -> Void

        init(_ key: String, nullIsDefault: Bool = false,
             _ read: @escaping @Sendable (YAMLValue, inout ServiceConfig) throws(ConfigError) -> Void) {
            self.key = key
            self.nullIsDefault = nullIsDefault
            self.read = read
        }
    }
}
