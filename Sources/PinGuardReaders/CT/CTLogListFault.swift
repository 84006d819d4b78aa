/// Why a log list does not read: the entry it stopped at (`operators[2].logs[1]`, nil for the list's own
/// fields) and what is wrong there; `CTLogListReader` turns it into a `ConfigError` naming the list.
struct CTLogListFault: Error {
    /// The entry, as a path into the JSON.
    var key: String?
    /// What is wrong, naming the field.
    var message: String
}
