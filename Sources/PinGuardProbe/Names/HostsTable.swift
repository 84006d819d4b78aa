#if canImport(Glibc)
import Glibc
#endif

/// The machine's hosts file as glibc's `files` source reads it for getaddrinfo: every line whose first field
/// is an IPv4 or IPv6 address (`inet_pton`, as glibc parses it; other lines are ignored, as glibc ignores
/// them) gives that address to its canonical name and each alias; `#` starts a comment; a NUL ends the line
/// (glibc reads each line as a C string, so what follows a NUL up to the newline is never seen); names
/// compare ASCII-case-insensitively (`strcasecmp`). A name on several lines has all their addresses, in file order.
public struct HostsTable: Sendable {
    /// One address of a name: its family and bytes (4 for IPv4, 16 for IPv6).
    public struct Entry: Sendable, Equatable {
        /// `AF_INET` or `AF_INET6`.
        public var family: Int32
        /// The address bytes.
        public var bytes: [UInt8]
    }

    private var names: [[UInt8]: [Entry]] = [:]

    /// Reads a hosts file's bytes.
    public init(_ text: [UInt8]) {
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let content = line.prefix { $0 != UInt8(ascii: "#") && $0 != 0 }
            let fields = content.split(whereSeparator: Self.isSpace)
            guard fields.count > 1, let entry = Self.address(fields[0]) else { continue }
            for name in fields.dropFirst() { names[Self.folded(name), default: []].append(entry) }
        }
    }

    /// The addresses of `name` in file order; nil when the file does not name it.
    public func addresses(of name: String) -> [Entry]? { names[Self.folded(name.utf8)] }

    /// Number of distinct names.
    public var count: Int { names.count }

    /// `isspace` in the C locale, which glibc's line parser splits fields on.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || (byte >= 9 && byte <= 13) }

    static func folded<S: Sequence<UInt8>>(_ name: S) -> [UInt8] {
        name.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
    }

    /// The address of a field as `inet_pton` reads it, IPv6 first as glibc tries it.
    static func address(_ field: ArraySlice<UInt8>) -> Entry? {
        guard field.count < 64 else { return nil }
        let text = String(decoding: field, as: UTF8.self)
        var buffer = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET6, text, &buffer) == 1 { return Entry(family: AF_INET6, bytes: buffer) }
        if inet_pton(AF_INET, text, &buffer) == 1 { return Entry(family: AF_INET, bytes: Array(buffer.prefix(4))) }
        return nil
    }
}

/// Whether glibc asks the hosts file first and stops at what it finds there: the `hosts:` line of
/// nsswitch.conf names `files` first, without an action that lets a lookup found there go on (`[SUCCESS=...]`).
/// Without a `hosts:` line glibc's default asks DNS first; a file this does not read plainly (several `hosts`
/// lines, another spelling) counts as not first, so getaddrinfo decides.
public enum NameServiceSwitch {
    /// Whether `text` (an nsswitch.conf) makes the hosts file answer first and alone for the names it holds.
    public static func hostsFileFirst(_ text: String) -> Bool {
        let lines = text.split(separator: "\n").map { $0.prefix { $0 != "#" }.split { $0 == " " || $0 == "\t" } }
        let hosts = lines.filter { $0.first?.lowercased().hasPrefix("hosts") == true }
        guard hosts.count == 1, let tokens = hosts.first, tokens[0] == "hosts:", tokens.count > 1, tokens[1] == "files" else {
            return false
        }
        return !(tokens.count > 2 && tokens[2].hasPrefix("[") && tokens[2].lowercased().contains("success"))
    }
}
