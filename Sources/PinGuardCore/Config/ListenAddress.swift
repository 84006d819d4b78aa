/// A parsed `listen` address.
public struct ListenAddress: Sendable, Equatable {
    /// Host to bind; `nil` = all addresses.
    public var host: String?
    /// TCP port.
    public var port: Int

    /// Parses `:9477`, `127.0.0.1:9477`, `[::1]:9477`, `localhost:9477`.
    public static func parse(_ text: String) -> ListenAddress? {
        // Host names are at most 253 bytes; checking the length first keeps a huge value cheap.
        guard text.utf8.count <= 300, let colon = text.utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        guard let port = Int(text[text.utf8.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        else if host.contains(Character(":")) { return nil }
        return ListenAddress(host: host.isEmpty ? nil : host, port: port)
    }
}
