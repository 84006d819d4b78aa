import NIOCore
import NIOHTTP1
import NIOPosix
import PinGuardConfig
import PinGuardCore
import PinGuardReaders

/// Routes one HTTP/1.1 connection's requests: `GET /metrics`, `/healthz`, `/-/healthy`, `/-/ready`,
/// `POST /-/reload` (with `--web.enable-lifecycle`), `/`.
///
/// Besides routing, it enforces the per-request limits: a deadline for the request head, a deadline for
/// sending the response, the body limit (from `Content-Length` before any body is read), and, with a web
/// configuration, basic authentication and extra response headers.
final class HTTPRequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// What every connection's handler shares.
    struct Shared: Sendable {
        let backend: any EndpointBackend
        let limits: HTTPLimits
        /// Renders /metrics off the event loop, one at a time.
        let renderer: NIOThreadPool
        /// Renders pages for people off the event loop and apart from `renderer`, so pages never queue
        /// ahead of a scrape.
        let pageRenderer: NIOThreadPool
        /// The `--web.config.file`, re-read for each request; nil without one.
        let webConfig: WebConfigSource?
        /// Checks basic-auth passwords off the event loop (bcrypt is slow on purpose).
        let authenticator: BasicAuthenticator
    }

    static let pieceSize = 1 << 20

    let shared: Shared
    let client: String
    var options: HTTPEndpointOptions { shared.limits.options }
    var head: HTTPRequestHead?
    var bodyBytes = 0
    /// The request was already answered (413) and its remaining parts are ignored.
    var answeredEarly = false
    /// Requests whose head arrived and whose response has not ended (pipelined requests count too).
    var unanswered = 0
    var headDeadline: Scheduled<Void>?
    /// Extra headers from the web configuration for the request being answered.
    var configHeaders: [(String, String)] = []

    init(_ shared: Shared, client: String) {
        self.shared = shared
        self.client = client
    }

    func channelActive(context: ChannelHandlerContext) {
        armHeadDeadline(context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armHeadDeadline(context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        headDeadline?.cancel()
        context.fireChannelInactive()
    }

    /// A request that does not parse was answered 400 by NIO's protocol error handler: nothing more can be
    /// read from this connection, so it is closed now rather than at the head deadline.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        headDeadline?.cancel()
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The whole head must arrive within the deadline: a byte now and then does not extend it.
    func armHeadDeadline(_ context: ChannelHandlerContext) {
        headDeadline?.cancel()
        let channel = context.channel
        headDeadline = context.eventLoop.scheduleTask(in: Self.amount(options.readHeaderTimeout)) {
            channel.close(promise: nil)
        }
    }

    /// Whether to gzip the answer to `h`: only for GET (a HEAD response announces the length of the plain
    /// body) and when its `Accept-Encoding` takes gzip.
    static func takesGzip(_ h: HTTPRequestHead) -> Bool {
        h.method == .GET && AcceptEncoding.allowsGzip(h.headers[canonicalForm: "accept-encoding"].map(String.init))
    }

    static func amount(_ seconds: Double) -> TimeAmount { .milliseconds(Int64(max(seconds, 0.001) * 1000)) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            headDeadline?.cancel()
            headDeadline = nil
            unanswered += 1
            head = h
            bodyBytes = 0
            answeredEarly = false
            let declared = h.headers.first(name: "content-length").flatMap(Int.init)
            if let declared, declared > options.maxBody {
                tooLarge(context, h)
            }
        case .body(let buffer):
            guard !answeredEarly, let h = head else { return }
            bodyBytes += buffer.readableBytes
            // A chunked body has no length up front: refuse as soon as it passes the limit.
            if bodyBytes > options.maxBody { tooLarge(context, h) }
        case .end:
            guard let h = head else { return }
            head = nil
            if answeredEarly { return }
            authorize(h, context: context)
        }
    }

    private func tooLarge(_ context: ChannelHandlerContext, _ h: HTTPRequestHead) {
        answeredEarly = true
        respond(context, h, .payloadTooLarge, "request body over \(options.maxBody) bytes\n", close: true)
    }

    /// Applies the web configuration (re-read now, as exporter-toolkit does per request), then routes.
    private func authorize(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        configHeaders = []
        guard let source = shared.webConfig else { return route(h, context: context) }
        let config: WebConfig
        switch source.current() {
        case .success(let c): config = c
        case .failure(let error):
            source.report(error)
            return respond(context, h, .internalServerError, "web configuration error: see the service log\n", close: true)
        }
        configHeaders = config.headers
        guard !config.basicAuthUsers.isEmpty else { return route(h, context: context) }
        guard let credentials = BasicCredentials(authorization: h.headers.first(name: "authorization")) else {
            return unauthorized(context, h)
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        shared.authenticator.verify(credentials, config: config, client: client, eventLoop: context.eventLoop).whenComplete { result in
            let (handler, context) = bound.value
            switch result {
            case .success(.allowed): handler.route(h, context: context)
            case .success(.tooManyFailures):
                handler.respond(context, h, .tooManyRequests, "too many failed logins from this address; try again later\n",
                                extra: [("Retry-After", "60")])
            case .success(.busy):
                handler.respond(context, h, .serviceUnavailable, "too many logins being checked\n", extra: [("Retry-After", "1")])
            case .success(.denied), .failure: handler.unauthorized(context, h)
            }
        }
    }

    func unauthorized(_ context: ChannelHandlerContext, _ h: HTTPRequestHead) {
        respond(context, h, .unauthorized, "Unauthorized\n", extra: [("WWW-Authenticate", "Basic")])
    }

    func route(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = h.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? h.uri
        let isGet = h.method == .GET || h.method == .HEAD
        switch path {
        case "/metrics":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            serveMetrics(h, context: context)
        case "/healthz", "/-/healthy":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            respond(context, h, .ok, "ok\n")
        case "/probe":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            probe(h, context: context)
        case "/-/ready":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            if shared.backend.isReady { respond(context, h, .ok, "ready\n") }
            else { respond(context, h, .serviceUnavailable, "not ready: the first probe round is running\n") }
        case "/-/reload":
            guard h.method == .POST || h.method == .PUT else { return methodNotAllowed(context, h, "POST, PUT") }
            // As Prometheus: the lifecycle API is opt-in, since anyone who reaches the port could use it.
            guard options.enableLifecycle else {
                return respond(context, h, .forbidden, "Lifecycle API is not enabled. Start pinguard serve with --web.enable-lifecycle, or send SIGHUP.\n")
            }
            reload(h, context: context)
        case "/":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            statusPage(h, context: context)
        case _ where path.hasPrefix("/targets/"):
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            targetPage(h, name: String(path.dropFirst("/targets/".count)), context: context)
        default:
            respond(context, h, .notFound, "not found: \(path)\n")
        }
    }

    func methodNotAllowed(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ allow: String) {
        respond(context, h, .methodNotAllowed, "method \(h.method.rawValue) not allowed; use \(allow)\n", extra: [("Allow", allow)])
    }

    func respond(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, _ text: String,
                         contentType: String = "text/plain; charset=utf-8", extra: [(String, String)] = [], close: Bool = false) {
        respond(context, h, status, [Array(text.utf8)], contentType: contentType, extra: extra, close: close)
    }

    func respond(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, _ body: [[UInt8]],
                         contentType: String, extra: [(String, String)] = [], close: Bool = false) {
        respond(context, h, status, ResponseBody(chunks: body, gzip: false), contentType: contentType, extra: extra, close: close)
    }

    func respond(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, _ body: ResponseBody,
                         contentType: String, extra: [(String, String)] = [], close: Bool = false,
                         done: @escaping @Sendable () -> Void = {}) {
        let keepAlive = h.isKeepAlive && !close
        var headers = HTTPHeaders(configHeaders)
        for (name, value) in [("Content-Type", contentType), ("Content-Length", String(body.length))] + extra {
            headers.replaceOrAdd(name: name, value: value)
        }
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        // A client that stops reading is dropped when the deadline passes, which frees what it holds. Each
        // response has its own: a pipelined next response may start before this one's end is confirmed.
        let channel = context.channel
        let deadline = context.eventLoop.scheduleTask(in: Self.amount(options.writeTimeout)) {
            channel.close(promise: nil)
        }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: h.version, status: status, headers: headers))), promise: nil)
        writeBody(context, h.method == .HEAD ? [] : body.parts, next: 0, pending: [], keepAlive: keepAlive, done: {
            deadline.cancel()
            done()
        })
    }

    /// Closes after a final response. When the request's body is still arriving (an early 413), closing at
    /// once would make the kernel reset the connection, and the client could lose the answer before reading
    /// it: so only the sending side is closed, and the rest is read and dropped for at most 2 s.
    func finish(_ channel: any Channel) {
        guard answeredEarly && head != nil else { return channel.close(promise: nil) }
        channel.close(mode: .output, promise: nil)
        _ = channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }

    /// Writes the body a piece (at most 1 MiB) at a time, each after the previous one left, so that a
    /// large exposition is not copied into NIO buffers all at once; a part to inflate is inflated when its
    /// turn comes, so a plain response holds one piece of the exposition at a time.
    func writeBody(_ context: ChannelHandlerContext, _ parts: [ResponseBody.Part], next: Int, pending: ArraySlice<UInt8>,
                           keepAlive: Bool, done: @escaping @Sendable () -> Void) {
        var next = next
        var pending = pending
        while pending.isEmpty && next < parts.count {
            switch parts[next] {
            case .bytes(let b): pending = b[...]
            case .inflating(let piece): pending = piece.inflated()[...]
            }
            next += 1
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        if !pending.isEmpty {
            let piece = context.channel.allocator.buffer(bytes: pending.prefix(Self.pieceSize))
            let rest = pending.dropFirst(Self.pieceSize)
            let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(piece))))
            let following = next
            let loop = context.eventLoop
            written.whenComplete { result in
                switch result {
                case .success:
                    // A write the socket took at once completes inline: continuing from here would nest one
                    // call per piece, each holding its piece, so a plain response would hold all of them.
                    // Continuing from the event loop's queue lets this call (and its piece) go first.
                    loop.execute {
                        let (handler, context) = bound.value
                        handler.writeBody(context, parts, next: following, pending: rest, keepAlive: keepAlive, done: done)
                    }
                case .failure:
                    done()
                    bound.value.1.close(promise: nil)
                }
            }
            return
        }
        let ended = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        let channel = context.channel
        ended.whenComplete { result in
            done()
            let (handler, context) = bound.value
            handler.unanswered -= 1
            if !keepAlive || (try? result.get()) == nil {
                handler.finish(channel)
            } else if handler.unanswered == 0 {
                handler.armHeadDeadline(context)
            }
        }
    }
}
