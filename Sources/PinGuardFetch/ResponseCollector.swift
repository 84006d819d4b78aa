import NIOCore
import NIOHTTP1

/// Collects one HTTP response from swift-nio's decoder into a promise: its head, then its body up to `maxBytes`
/// (a said length over it is refused before any body is read), complete at the response's end. A connection that
/// ends or fails first fails the promise; so does a body past the cap (`FetchExchange.Oversize`).
///
/// The other half: `FetchExchange`, which connects, sends the request and closes the channel when the promise completes.
final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// A complete response.
    struct Response: Sendable {
        var head: HTTPResponseHead
        var body: [UInt8]
    }

    /// The connection ended before the response did.
    struct EndedEarly: Error, CustomStringConvertible {
        var description: String { "the connection ended before the response did" }
    }

    private let maxBytes: Int
    private let promise: EventLoopPromise<Response>
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    init(maxBytes: Int, promise: EventLoopPromise<Response>) {
        self.maxBytes = maxBytes
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            // An informational answer (100 Continue, 103 Early Hints) comes before the response.
            guard received.status.code >= 200 else { return }
            let length = received.headers.first(name: "content-length").flatMap(Int.init)
            if let length, length > maxBytes { return promise.fail(FetchExchange.Oversize()) }
            // A said length is reserved at once: growing by doubling would hold up to twice the body meanwhile.
            if let length, length > 0 { body.reserveCapacity(length) }
            head = received
        case .body(let chunk):
            guard body.count + chunk.readableBytes <= maxBytes else { return promise.fail(FetchExchange.Oversize()) }
            body += chunk.readableBytesView
        case .end:
            guard let head else { return promise.fail(EndedEarly()) }
            promise.succeed(Response(head: head, body: body))
            body = []
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(EndedEarly())
        context.fireChannelInactive()
    }
}
