import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import PinGuardCore

/// One GET to one checked address: a client of its own whose DNS override pins the host to that address
/// (the certificate is still verified for the host), no redirects followed, the body capped while it streams.
struct FetchExchange {
    var url: FetchURL
    var address: String
    var purpose: FetchPurpose
    /// When the whole fetch must be over.
    var deadline: NIODeadline
    var tls: TLSConfiguration

    /// A body larger than the purpose allows.
    struct Oversize: Error {}

    /// Makes the request; the client is shut down before returning.
    func run() async -> FetchOutcome {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration())
        let outcome: FetchOutcome
        do {
            outcome = try await exchange(client)
        } catch is Oversize {
            outcome = .refused(oversize)
        } catch {
            outcome = .failed("\(url.text): \(Self.describe(error))")
        }
        try? await client.shutdown()
        return outcome
    }

    private var oversize: String {
        "\(url.text): the body is larger than the \(purpose.maxBytes)-byte cap for \(purpose.rawValue)"
    }

    private func exchange(_ client: HTTPClient) async throws -> FetchOutcome {
        var request = HTTPClientRequest(url: url.requestText)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: "pinguard")
        let response = try await client.execute(request, deadline: deadline)
        let length = response.headers.first(name: "content-length").flatMap(Int.init)
        if let length, length > purpose.maxBytes { throw Oversize() }
        var body: [UInt8] = []
        // A said length is reserved at once: growing by doubling would hold up to twice the body meanwhile.
        if let length, length > 0 { body.reserveCapacity(length) }
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= purpose.maxBytes else { throw Oversize() }
            body += chunk.readableBytesView
        }
        var headers: [String: String] = [:]
        for (name, value) in response.headers where headers[name.lowercased()] == nil { headers[name.lowercased()] = value }
        return .fetched(FetchedDocument(url: url.text, status: Int(response.status.code), headers: headers, body: body,
                                        fetchedAt: Date().timeIntervalSince1970))
    }

    private func configuration() -> HTTPClient.Configuration {
        let left = max(deadline - .now(), .milliseconds(1))
        var c = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                         timeout: .init(connect: left, read: left),
                                         decompression: .disabled)
        c.dnsOverride = [url.host: address]
        c.httpVersion = .http1Only
        // One attempt: a refused connection or a failed TLS verification is an outcome now, not a retry
        // loop until the deadline; the caller's schedule decides when to try again.
        c.connectionPool.retryConnectionEstablishment = false
        return c
    }

    /// An error's text, with TLS verification failures said plainly.
    static func describe(_ error: Error) -> String {
        if let ssl = error as? NIOSSLError { return "TLS: \(ssl)" }
        return "\(error)"
    }
}
