/// Where a log list in force comes from (`ct.log_lists.NAME`): the copy bundled with pinguard, a file, or its
/// publisher's `https://` URL, fetched every `ct.refresh`.
///
/// Fetched lists are the capability of three layers: this file and `CTLogListAdmission` (which list may be put
/// in force), `PinGuardConfig/CT/CTLogListDownload` (fetch, signature, parse) and
/// `PinGuardService/LogLists/LogListRefresher` (the schedule, the last good list, the swap in force).
public enum CTLogListSource: Sendable, Equatable {
    /// The snapshot bundled with pinguard.
    case bundled
    /// A file, as written (relative to the config's folder).
    case file(String)
    /// The publisher's URL.
    case url(String)

    /// The source `configured` names (`ct.log_lists.NAME` as written; nil: the bundled copy).
    public init(configured: String?) {
        guard let configured else {
            self = .bundled
            return
        }
        self = Self.isURL(configured) ? .url(configured) : .file(configured)
    }

    /// The URL, when the list is fetched.
    public var url: String? {
        guard case .url(let url) = self else { return nil }
        return url
    }

    /// Whether `text` is written as a URL (any scheme): only `https://` ones are accepted.
    public static func isURL(_ text: String) -> Bool { text.contains("://") }

    /// Whether `text` is an `https://` URL with a host.
    public static func isHTTPS(_ text: String) -> Bool {
        guard text.lowercased().hasPrefix("https://") else { return false }
        let rest = text.dropFirst("https://".count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !text.contains(where: { $0.isWhitespace })
    }

    /// The detached signature of the list at `url`: the same URL with `.sig` in place of its final `.json`
    /// (Chrome publishes `log_list.sig` beside `log_list.json`); nil when the path does not end in `.json`.
    public static func signatureURL(of url: String) -> String? {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        guard path.hasSuffix(".json") else { return nil }
        return String(path.dropLast(".json".count)) + ".sig" + url.dropFirst(path.count)
    }
}

extension CTLogListName {
    /// Where the publisher serves the list: Chrome's v3 `log_list.json` (signed, `log_list.sig` beside it) and
    /// Apple's `current_log_list.json` (no detached signature: only HTTPS vouches for it).
    public var publishedURL: String {
        switch self {
        case .chrome: return "https://www.gstatic.com/ct/log_list/v3/log_list.json"
        case .apple: return "https://valid.apple.com/ct/log_list/current_log_list.json"
        }
    }

    /// Whether the publisher signs the list with a detached signature (`ct.log_list_keys`).
    public var isSigned: Bool { self == .chrome }
}
