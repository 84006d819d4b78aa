import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
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

    /// Binds and serves until graceful shutdown.
    public func run() async throws {
        let runtime = self.runtime
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(HTTPRequestHandler(runtime: runtime))
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

    static let maxBody = 64 * 1024
    let runtime: PinGuardRuntime
    var head: HTTPRequestHead?
    var bodyBytes = 0

    init(runtime: PinGuardRuntime) { self.runtime = runtime }

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
            respond(context, h, .ok, MetricsRenderer.renderChunks(runtime.snapshot()), contentType: MetricsRenderer.contentType)
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
                         contentType: String, extra: [(String, String)] = [], close: Bool = false) {
        let keepAlive = h.isKeepAlive && !close
        let length = body.reduce(0) { $0 + $1.count }
        var headers = HTTPHeaders([("Content-Type", contentType), ("Content-Length", String(length))] + extra)
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: h.version, status: status, headers: headers))), promise: nil)
        writeBody(context, h.method == .HEAD ? [] : body, chunk: 0, offset: 0, keepAlive: keepAlive)
    }

    static let pieceSize = 1 << 20

    /// Writes the body a piece (at most 1 MiB) at a time, each after the previous one left, so that a
    /// 30 MB exposition is not copied into NIO buffers all at once.
    private func writeBody(_ context: ChannelHandlerContext, _ body: [[UInt8]], chunk: Int, offset: Int, keepAlive: Bool) {
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
                case .success: handler.writeBody(context, body, chunk: current, offset: end, keepAlive: keepAlive)
                case .failure: context.close(promise: nil)
                }
            }
            return
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
