import Foundation

/// What a download is for: it sets the size cap and names the fetch in messages.
public enum FetchPurpose: String, Sendable, CaseIterable {
    /// An ACME directory (RFC 8555 §7.1.1).
    case acmeDirectory = "acme_directory"
    /// An ACME renewal information window (RFC 9773).
    case renewalInfo = "renewal_info"
    /// A certificate revocation list (RFC 5280).
    case crl
    /// A Certificate Transparency log list or its signature.
    case ctLogList = "ct_log_list"
    /// A CA certificate from a caIssuers URL (RFC 5280 4.2.2.1), as Chrome and Apple download it.
    case caIssuers = "ca_issuers"

    /// The largest body accepted, bytes.
    public var maxBytes: Int {
        switch self {
        case .acmeDirectory, .renewalInfo, .caIssuers: return 64 * 1024
        case .crl: return 32 * 1024 * 1024
        case .ctLogList: return 4 * 1024 * 1024
        }
    }
}

/// One download to make.
public struct FetchRequest: Sendable, Equatable {
    /// The `http` or `https` URL.
    public var url: String
    /// What it is for.
    public var purpose: FetchPurpose

    /// Creates a request.
    public init(url: String, purpose: FetchPurpose) {
        self.url = url
        self.purpose = purpose
    }
}

/// A response that arrived, whatever its status.
public struct FetchedDocument: Sendable, Equatable {
    /// The URL asked for.
    public var url: String
    /// The HTTP status of the final response (after redirects).
    public var status: Int
    /// Header fields of the final response, names in lower case.
    public var headers: [String: String]
    /// The body (at most the purpose's cap).
    public var body: [UInt8]
    /// When it arrived (seconds since 1970).
    public var fetchedAt: Double

    /// Creates a document.
    public init(url: String, status: Int, headers: [String: String], body: [UInt8], fetchedAt: Double) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.fetchedAt = fetchedAt
    }
}

/// What became of a fetch.
public enum FetchOutcome: Sendable, Equatable {
    /// A response arrived (any status: a 404 is an answer).
    case fetched(FetchedDocument)
    /// The fetcher would not make it: the reason names the rule (`fetch.networks`, the scheme, the size).
    case refused(String)
    /// It was tried and failed: resolution, connection, TLS verification, timeout.
    case failed(String)
}

/// The one way pinguard downloads anything: every implementation applies `FetchSettings` to every
/// resolved address and every redirect, caps sizes by purpose and verifies HTTPS.
public protocol DocumentFetching: Sendable {
    /// Makes one fetch.
    func fetch(_ request: FetchRequest) async -> FetchOutcome
}

/// A document kept across rounds and restarts, with how long it stays good.
public struct CachedDocument: Sendable, Equatable {
    /// The URL it came from.
    public var url: String
    /// The body as fetched.
    public var body: [UInt8]
    /// When it was fetched (seconds since 1970).
    public var fetchedAt: Double
    /// Until when it is used without fetching again (seconds since 1970).
    public var freshUntil: Double

    /// Creates a cached document.
    public init(url: String, body: [UInt8], fetchedAt: Double, freshUntil: Double) {
        self.url = url
        self.body = body
        self.fetchedAt = fetchedAt
        self.freshUntil = freshUntil
    }
}

/// Where fetched documents are kept (the state store; memory only without a state file). What it hands
/// back is untrusted: every reader parses and checks it as if it had just been fetched.
public protocol FetchedDocumentStore: Sendable {
    /// The last good copy of `url`, if any.
    func document(url: String) -> CachedDocument?
    /// Keeps `document`, replacing an older copy of the same URL.
    func keep(_ document: CachedDocument)
}
