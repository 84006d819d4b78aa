import Foundation
import NIOCore
import NIOSSL
import PinGuardCore
import PinGuardFiles

/// The one way pinguard downloads anything (ACME renewal information, CRLs, CT log lists).
///
/// Every hop resolves its host here, checks every resolved address with `FetchSettings.permits` and only
/// then connects, to an address it checked (`FetchExchange` dials that address itself, so no second lookup
/// can rebind it). Redirects are followed by hand, at most `maxRedirects`, each hop checked
/// again. Bodies are capped by `FetchPurpose.maxBytes` while they stream; HTTPS is verified against the
/// system store or `fetch.ca_file`; plain http is allowed for CRLs only (they are signed, and RFC 5280
/// distribution points are http). The whole fetch, redirects included, gets `FetchSettings.timeout`.
///
/// The other halves: `FetchSettings` and `FetchOutcome` in PinGuardCore/Fetch, the cache in
/// PinGuardState (`StateStore` as a `FetchedDocumentStore`) or `MemoryDocumentStore` here.
public struct GuardedFetcher: DocumentFetching {
    /// How many redirects one fetch follows.
    public static let maxRedirects = 5

    /// The rules every fetch follows.
    public let settings: FetchSettings
    let tls: NIOSSLContext
    let notices: RefusalNotices?

    /// A fetcher for `settings`; throws when `fetch.ca_file` cannot be read or holds no certificate, or the TLS
    /// context cannot be made.
    /// `notices`, when given, hears each refusal once per host.
    public init(settings: FetchSettings, notices: RefusalNotices? = nil) throws(FetchSetupError) {
        self.settings = settings
        self.notices = notices
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let caFile = settings.caFile { tls.trustRoots = .certificates(try Self.certificates(caFile)) }
        do { self.tls = try NIOSSLContext(configuration: tls) } catch {
            throw FetchSetupError("the TLS context for downloads: \(error)")
        }
    }

    /// Makes one fetch; never throws: a refusal or failure is an outcome with its reason.
    ///
    /// The whole fetch, redirects included, has one deadline, which each step is given (the resolver's wait, the
    /// exchange's connect and response deadlines): no timer task races the fetch, so nothing outlives it.
    public func fetch(_ request: FetchRequest) async -> FetchOutcome {
        let deadline = NIODeadline.now() + .milliseconds(Int64(max(settings.timeout, 0.001) * 1000))
        var outcome = await follow(request, deadline: deadline)
        if case .failed = outcome, NIODeadline.now() >= deadline {
            outcome = .failed("\(EchoedInput.quoted(request.url, limit: 200)): no answer within fetch.timeout (\(PromDuration.format(settings.timeout)))")
        }
        if case .refused(let reason) = outcome { notices?.note(host: FetchURL.hostOf(request.url), reason: reason) }
        return outcome
    }

    /// Follows `request.url` through at most `maxRedirects` redirects, each hop checked, all by `deadline`.
    func follow(_ request: FetchRequest, deadline: NIODeadline) async -> FetchOutcome {
        var url = request.url
        for _ in 0...Self.maxRedirects {
            let outcome = await hop(url, purpose: request.purpose, deadline: deadline)
            guard case .fetched(var document) = outcome else { return outcome }
            guard let next = FetchURL.redirectTarget(document, from: url) else {
                document.url = request.url
                return .fetched(document)
            }
            url = next
        }
        return .refused("\(EchoedInput.quoted(request.url, limit: 200)): more than \(Self.maxRedirects) redirects")
    }

    /// One request, no redirect followed: the scheme rule, every address checked, then the connection.
    func hop(_ text: String, purpose: FetchPurpose, deadline: NIODeadline) async -> FetchOutcome {
        let url: FetchURL
        switch FetchURL.parse(text, purpose: purpose) {
        case .success(let parsed): url = parsed
        case .failure(let refusal): return .refused(refusal.reason)
        }
        let resolved = await FetchAddresses.resolve(url, settings: settings, within: Self.seconds(until: deadline))
        let address: String
        switch resolved {
        case .refused(let reason): return .refused(reason)
        case .failed(let reason): return .failed(reason)
        case .checked(let first): address = first
        }
        guard !Task.isCancelled else { return .failed("\(url.host): abandoned") }
        return await FetchExchange(url: url, address: address, purpose: purpose, deadline: deadline, tls: tls).run()
    }

    /// Seconds left until `deadline`, at least a millisecond.
    static func seconds(until deadline: NIODeadline) -> Double {
        max(Double((deadline - .now()).nanoseconds) / 1e9, 0.001)
    }

    /// The certificates of a CA bundle, read as a regular file of bounded size.
    static func certificates(_ path: String) throws(FetchSetupError) -> [NIOSSLCertificate] {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, maxBytes: 16 * 1024 * 1024) } catch {
            throw FetchSetupError("fetch.ca_file \(error)")
        }
        let found = (try? NIOSSLCertificate.fromPEMBytes(bytes)) ?? []
        guard !found.isEmpty else { throw FetchSetupError("fetch.ca_file \(path): no PEM certificate in it") }
        return found
    }
}

/// Why a fetcher could not be set up (its CA file).
public struct FetchSetupError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the configuration key.
    public let description: String

    init(_ description: String) { self.description = description }

    /// The error of a fetcher maker other than the guarded fetcher's, as its text.
    public init(describing error: any Error) { description = "\(error)" }
}
