import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PinGuardCore

/// One GET to one checked address, on swift-nio's own HTTP/1.1 handlers: the connection goes to that address and
/// nowhere else (no name is resolved here, so nothing can rebind it), the certificate is verified for the URL's
/// host (also the SNI name and the `Host` header), no redirect is followed, the body is capped while it streams, and
/// everything ends by the fetch's deadline or when the task is cancelled.
///
/// The other halves: `ResponseCollector` (the response as it arrives), `GuardedFetcher` (the rules around a hop).
struct FetchExchange {
    var url: FetchURL
    var address: String
    var purpose: FetchPurpose
    /// When the whole fetch must be over.
    var deadline: NIODeadline
    /// The verified TLS context for `https`.
    var tls: NIOSSLContext

    /// A body larger than the purpose allows.
    struct Oversize: Error {}

    /// The deadline came before the response ended.
    struct Late: Error, CustomStringConvertible {
        var description: String { "no complete response by the deadline" }
    }

    /// Makes the request; the connection is closed before returning.
    func run() async -> FetchOutcome {
        let socket: SocketAddress
        do { socket = try SocketAddress(ipAddress: address, port: url.port) } catch {
            return .failed("\(url.text): \(Self.describe(error))")
        }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = eventLoop.makePromise(of: ResponseCollector.Response.self)
        let timer = eventLoop.scheduleTask(deadline: deadline) { promise.fail(Late()) }
        promise.futureResult.whenComplete { _ in timer.cancel() }
        connect(socket, on: eventLoop, answering: promise)
        do {
            let response = try await withTaskCancellationHandler {
                try await promise.futureResult.get()
            } onCancel: {
                promise.fail(CancellationError())
            }
            return .fetched(FetchedDocument(url: url.text, status: Int(response.head.status.code), headers: Self.headers(response.head),
                                            body: response.body, fetchedAt: Date().timeIntervalSince1970))
        } catch is Oversize {
            return .refused("\(url.text): the body is larger than the \(purpose.maxBytes)-byte cap for \(purpose.rawValue)")
        } catch {
            return .failed("\(url.text): \(Self.describe(error))")
        }
    }

    /// Connects, sends the request once connected and closes the channel when `promise` completes either way.
    private func connect(_ socket: SocketAddress, on eventLoop: any EventLoop, answering promise: EventLoopPromise<ResponseCollector.Response>) {
        // An address literal is no SNI name; the certificate is then checked against the address dialled.
        let sni = IPNetwork.addressBytes(url.host) == nil ? url.host : nil
        let (https, tls, maxBytes) = (url.scheme == "https", tls, purpose.maxBytes)
        let left = max(deadline - .now(), .milliseconds(1))
        ClientBootstrap(group: eventLoop)
            .connectTimeout(left)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if https { try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: sni)) }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(ResponseCollector(maxBytes: maxBytes, promise: promise))
                }
            }
            .connect(to: socket)
            .whenComplete { [head = requestHead] result in
                switch result {
                case .failure(let error): promise.fail(error)
                case .success(let channel):
                    promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
                    channel.write(HTTPClientRequestPart.head(head), promise: nil)
                    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                }
            }
    }

    /// GET of the URL's path and query, naming the canonical host; the connection closes after the response.
    private var requestHead: HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.target)
        head.headers.add(name: "Host", value: url.authority)
        head.headers.add(name: "User-Agent", value: "pinguard")
        head.headers.add(name: "Connection", value: "close")
        return head
    }

    /// The response's headers by lower-case name, the first of each name.
    static func headers(_ head: HTTPResponseHead) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in head.headers where headers[name.lowercased()] == nil { headers[name.lowercased()] = value }
        return headers
    }

    /// An error's text, with TLS verification failures said plainly.
    static func describe(_ error: Error) -> String {
        if let ssl = error as? NIOSSLError { return "TLS: \(ssl)" }
        if let ssl = error as? NIOSSLExtraError { return "TLS: \(ssl)" }
        if case .headerOverflow? = error as? HTTPParserError { return "the response's headers are over the 80 KiB limit" }
        if case .invalidEOFState? = error as? HTTPParserError { return ResponseCollector.EndedEarly().description }
        if let http = error as? HTTPParserError { return "not an HTTP/1.1 response (\(http))" }
        return "\(error)"
    }
}
