import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import PinGuardConfig
import PinGuardCore
import ServiceLifecycle

/// The HTTP endpoint: `GET /metrics`, `GET /healthz`, `GET /-/ready`, `POST /-/reload`.
///
/// Unknown paths get 404, wrong methods 405 with `Allow`, bodies over 64 KiB 413, and malformed requests
/// 400 (NIO's protocol error handler); none of them affect the service.
public struct MetricsServer: Service {
    let runtime: PinGuardRuntime
    let address: ListenAddress
    let group: MultiThreadedEventLoopGroup
    let onBound: @Sendable (SocketAddress) -> Void

    /// Creates the server; `onBound` is called once the socket listens.
    public init(runtime: PinGuardRuntime, address: ListenAddress, group: MultiThreadedEventLoopGroup,
                onBound: @escaping @Sendable (SocketAddress) -> Void) {
        self.runtime = runtime
        self.address = address
        self.group = group
        self.onBound = onBound
    }

    /// Connections served at once; more are closed on accept, so file descriptors stay for the probes.
    static let maxConnections = 256
    /// A connection with no read and no write for this long is closed (stalled or half-sent requests,
    /// readers that stopped reading a response): 60 s, or `PINGUARD_HTTP_IDLE_TIMEOUT` seconds.
    static let idleTimeout: TimeAmount = {
        let seconds = ProcessInfo.processInfo.environment["PINGUARD_HTTP_IDLE_TIMEOUT"].flatMap(Double.init) ?? 60
        return .milliseconds(Int64(max(seconds, 0.1) * 1000))
    }()

    /// Binds and serves until graceful shutdown.
    public func run() async throws {
        let limits = HTTPLimits()
        let renderer = NIOThreadPool(numberOfThreads: 1)
        renderer.start()
        defer { renderer.shutdownGracefully { _ in } }
        let context = HTTPRequestHandler.Shared(runtime: runtime, limits: limits, renderer: renderer)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard limits.openConnection() else { return channel.close() }
                channel.closeFuture.whenComplete { _ in limits.closeConnection() }
                do {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(allTimeout: Self.idleTimeout))
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(HTTPRequestHandler(context))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 1)
        let channel: Channel
        do {
            channel = try await bootstrap.bind(host: address.host ?? "::", port: address.port).get()
        } catch where address.host == nil {
            // No IPv6 on this host: fall back to every IPv4 address.
            channel = try await bootstrap.bind(host: "0.0.0.0", port: address.port).get()
        }
        if let local = channel.localAddress { onBound(local) }
        // Close on graceful shutdown, and also when the group cancels us because another service failed.
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await channel.closeFuture.get()
            } onGracefulShutdown: {
                channel.close(promise: nil)
            }
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}

/// Routes one HTTP/1.1 connection's requests.
final class HTTPRequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// What every connection's handler shares.
    struct Shared: Sendable {
        let runtime: PinGuardRuntime
        let limits: HTTPLimits
        /// Renders /metrics off the event loop, one at a time.
        let renderer: NIOThreadPool
    }

    static let maxBody = 64 * 1024
    let shared: Shared
    var runtime: PinGuardRuntime { shared.runtime }
    var head: HTTPRequestHead?
    var bodyBytes = 0

    init(_ shared: Shared) { self.shared = shared }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            bodyBytes = 0
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            guard let h = head else { return }
            head = nil
            route(h, context: context)
        }
    }

    private func route(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        if bodyBytes > Self.maxBody {
            return respond(context, h, .payloadTooLarge, "request body over \(Self.maxBody) bytes\n", close: true)
        }
        let path = h.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? h.uri
        let isGet = h.method == .GET || h.method == .HEAD
        switch path {
        case "/metrics":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            // Each response in flight holds a whole exposition: a few at a time, rendered off the event loop.
            guard shared.limits.startScrape() else {
                return respond(context, h, .serviceUnavailable, "too many /metrics responses in progress\n",
                               extra: [("Retry-After", "5")])
            }
            let runtime = self.runtime
            let limits = shared.limits
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            shared.renderer.runIfActive(eventLoop: context.eventLoop) {
                MetricsRenderer.renderChunks(runtime.snapshot())
            }.whenComplete { result in
                let (handler, context) = bound.value
                switch result {
                case .success(let body):
                    handler.respond(context, h, .ok, body, contentType: MetricsRenderer.contentType, done: { limits.endScrape() })
                case .failure:
                    limits.endScrape()
                    handler.respond(context, h, .serviceUnavailable, "shutting down\n", close: true)
                }
            }
        case "/healthz":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            respond(context, h, .ok, "ok\n")
        case "/-/ready":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            if runtime.isReady { respond(context, h, .ok, "ready\n") }
            else { respond(context, h, .serviceUnavailable, "not ready: the first probe round is running\n") }
        case "/-/reload":
            guard h.method == .POST || h.method == .PUT else { return methodNotAllowed(context, h, "POST, PUT") }
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            let runtime = self.runtime
            let promise = loop.makePromise(of: Result<LoadedConfiguration, ConfigError>.self)
            promise.completeWithTask { await runtime.reload(trigger: "POST /-/reload") }
            promise.futureResult.whenSuccess { result in
                let (handler, context) = bound.value
                switch result {
                case .success(let loaded):
                    handler.respond(context, h, .ok, "reloaded \(loaded.path): \(loaded.config.targets.count) targets, \(loaded.policySets.count) policy sets\n")
                case .failure(let error):
                    handler.respond(context, h, .badRequest, "reload rejected, previous configuration kept: \(error)\n")
                }
            }
        case "/":
            guard isGet else { return methodNotAllowed(context, h, "GET, HEAD") }
            respond(context, h, .ok, "<html><head><title>pinguard</title></head><body><h1>pinguard</h1><ul><li><a href=\"/metrics\">/metrics</a></li><li><a href=\"/healthz\">/healthz</a></li><li><a href=\"/-/ready\">/-/ready</a></li></ul></body></html>\n", contentType: "text/html; charset=utf-8")
        default:
            respond(context, h, .notFound, "not found: \(path)\n")
        }
    }

    private func methodNotAllowed(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ allow: String) {
        respond(context, h, .methodNotAllowed, "method \(h.method.rawValue) not allowed; use \(allow)\n", extra: [("Allow", allow)])
    }

    private func respond(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, _ text: String,
                         contentType: String = "text/plain; charset=utf-8", extra: [(String, String)] = [], close: Bool = false) {
        respond(context, h, status, [Array(text.utf8)], contentType: contentType, extra: extra, close: close)
    }

    private func respond(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, _ body: [[UInt8]],
                         contentType: String, extra: [(String, String)] = [], close: Bool = false,
                         done: @escaping @Sendable () -> Void = {}) {
        let keepAlive = h.isKeepAlive && !close
        let length = body.reduce(0) { $0 + $1.count }
        var headers = HTTPHeaders([("Content-Type", contentType), ("Content-Length", String(length))] + extra)
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: h.version, status: status, headers: headers))), promise: nil)
        writeBody(context, h.method == .HEAD ? [] : body, chunk: 0, offset: 0, keepAlive: keepAlive, done: done)
    }

    static let pieceSize = 1 << 20

    /// Writes the body a piece (at most 1 MiB) at a time, each after the previous one left, so that a
    /// 30 MB exposition is not copied into NIO buffers all at once.
    private func writeBody(_ context: ChannelHandlerContext, _ body: [[UInt8]], chunk: Int, offset: Int, keepAlive: Bool,
                           done: @escaping @Sendable () -> Void) {
        var chunk = chunk
        var offset = offset
        while chunk < body.count && offset >= body[chunk].count {
            chunk += 1
            offset = 0
        }
        if chunk < body.count {
            let end = min(offset + Self.pieceSize, body[chunk].count)
            let piece = context.channel.allocator.buffer(bytes: body[chunk][offset..<end])
            let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(piece))))
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let current = chunk
            written.whenComplete { result in
                let (handler, context) = bound.value
                switch result {
                case .success: handler.writeBody(context, body, chunk: current, offset: end, keepAlive: keepAlive, done: done)
                case .failure:
                    done()
                    context.close(promise: nil)
                }
            }
            return
        }
        let ended = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        let channel = context.channel
        ended.whenComplete { _ in
            done()
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}

/// Counters that bound what HTTP clients can hold: open connections and /metrics responses in flight.
final class HTTPLimits: Sendable {
    private let counts = NIOLockedValueBox((connections: 0, scrapes: 0))
    /// /metrics responses rendered or being sent at once.
    static let maxScrapes = 4

    /// Counts a new connection; false when the limit is reached (the caller closes it).
    func openConnection() -> Bool {
        counts.withLockedValue { c in
            guard c.connections < MetricsServer.maxConnections else { return false }
            c.connections += 1
            return true
        }
    }

    /// A connection closed (only those `openConnection` admitted register this).
    func closeConnection() { counts.withLockedValue { $0.connections -= 1 } }

    /// Admits one more /metrics response, or false when enough are in flight.
    func startScrape() -> Bool {
        counts.withLockedValue { c in
            guard c.scrapes < Self.maxScrapes else { return false }
            c.scrapes += 1
            return true
        }
    }

    /// A /metrics response finished or failed.
    func endScrape() { counts.withLockedValue { $0.scrapes -= 1 } }
}
