import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A real HTTP or HTTPS server on 127.0.0.1 standing in for a certificate authority: each path answers
/// with the route set for it (404 otherwise), and every request is counted per path, so a test can prove
/// what was fetched and what never was.
public final class AuthorityServer: Sendable {
    /// One answer: status, header fields and body.
    public struct Route: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Header fields sent besides `content-length`.
        public var headers: [(String, String)]
        /// The body.
        public var body: [UInt8]
        /// Whether the body is sent chunked, with no `content-length` (a server that does not say the size).
        public var chunked: Bool

        /// An answer.
        public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], chunked: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.chunked = chunked
        }

        /// A 200 with a JSON body.
        public static func json(_ text: String, headers: [(String, String)] = []) -> Route {
            Route(headers: [("content-type", "application/json")] + headers, body: Array(text.utf8))
        }

        /// A redirect to `location`.
        public static func redirect(_ location: String, status: Int = 302) -> Route {
            Route(status: status, headers: [("location", location)])
        }
    }

    let state = NIOLockedValueBox(ServedState())
    private let channel: Channel
    /// The port it listens on.
    public let port: Int
    /// The loopback address it listens on.
    public let address: String
    /// `http` or `https`.
    public let scheme: String

    /// Starts a server on `address` (a loopback address); with `tls`, HTTPS with that identity.
    public init(tls: AuthorityTLS? = nil, address: String = "127.0.0.1") async throws {
        let context = try tls.map { try NIOSSLContext(configuration: $0.serverConfiguration()) }
        let state = self.state
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(AuthorityHandler(state: state))
                }
            }
        channel = try await bootstrap.bind(host: address, port: 0).get()
        self.address = address
        port = channel.localAddress?.port ?? 0
        scheme = tls == nil ? "http" : "https"
    }

    /// `scheme://address:port` + `path`.
    public func url(_ path: String) -> String { "\(scheme)://\(address):\(port)\(path)" }

    /// Sets what `path` answers (the path without its query).
    public func route(_ path: String, _ route: Route) {
        state.withLockedValue { $0.routes[path] = route }
    }

    /// How many requests asked for `path`.
    public func requests(_ path: String) -> Int {
        state.withLockedValue { $0.counts[path, default: 0] }
    }

    /// How many requests arrived in all.
    public var totalRequests: Int {
        state.withLockedValue { $0.counts.values.reduce(0, +) }
    }

    /// Stops listening.
    public func stop() async {
        try? await channel.close()
    }
}

/// The routes and counts of one server.
struct ServedState: Sendable {
    var routes: [String: AuthorityServer.Route] = [:]
    var counts: [String: Int] = [:]
}

/// Answers each request from the routes and counts it.
final class AuthorityHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: NIOLockedValueBox<ServedState>
    private var path = "/"

    init(state: NIOLockedValueBox<ServedState>) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = String(head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
        case .body:
            break
        case .end:
            let route = state.withLockedValue { s in
                s.counts[path, default: 0] += 1
                return s.routes[path] ?? AuthorityServer.Route(status: 404, body: Array("not found\n".utf8))
            }
            respond(route, context: context)
        }
    }

    private func respond(_ route: AuthorityServer.Route, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(route.headers)
        headers.add(name: "connection", value: "close")
        if route.chunked { headers.add(name: "transfer-encoding", value: "chunked") } else {
            headers.add(name: "content-length", value: String(route.body.count))
        }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: route.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        var offset = 0
        while offset < route.body.count {
            let piece = route.body[offset..<min(offset + 16_384, route.body.count)]
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: piece)))), promise: nil)
            offset += piece.count
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
