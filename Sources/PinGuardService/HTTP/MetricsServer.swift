import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import ServiceLifecycle

/// The HTTP endpoint: `GET /metrics`, `GET /healthz`, `GET /-/healthy`, `GET /-/ready`, `POST /-/reload`.
///
/// Unknown paths get 404, wrong methods 405 with `Allow`, bodies over 64 KiB 413, and malformed requests
/// 400 (NIO's protocol error handler); none of them affect the service. With a web configuration the
/// endpoint speaks TLS and/or asks for basic authentication (see `WebConfig`).
public struct MetricsServer: Service {
    let backend: any EndpointBackend
    let address: ListenAddress
    let group: MultiThreadedEventLoopGroup
    let options: HTTPEndpointOptions
    let webConfig: WebConfigSource?
    let onBound: @Sendable (SocketAddress) -> Void

    /// Creates the server; `onBound` is called once the socket listens. `webConfig` is the already
    /// validated `--web.config.file`, re-read for each connection and request.
    public init(backend: any EndpointBackend, address: ListenAddress, group: MultiThreadedEventLoopGroup,
                options: HTTPEndpointOptions = HTTPEndpointOptions(), webConfig: WebConfigSource? = nil,
                onBound: @escaping @Sendable (SocketAddress) -> Void) {
        self.backend = backend
        self.address = address
        self.group = group
        self.options = options
        self.webConfig = webConfig
        self.onBound = onBound
    }

    /// Binds and serves until graceful shutdown.
    public func run() async throws {
        let limits = HTTPLimits(options)
        let renderer = NIOThreadPool(numberOfThreads: 1)
        renderer.start()
        defer { renderer.shutdownGracefully { _ in } }
        let pageRenderer = NIOThreadPool(numberOfThreads: 1)
        pageRenderer.start()
        defer { pageRenderer.shutdownGracefully { _ in } }
        let authenticator = BasicAuthenticator()
        defer { authenticator.shutdown() }
        let shared = HTTPRequestHandler.Shared(backend: backend, limits: limits, renderer: renderer, pageRenderer: pageRenderer,
                                               webConfig: webConfig, authenticator: authenticator)
        // Whether the endpoint speaks TLS is decided at start, as exporter-toolkit does; certificates and
        // the rest are re-read for each connection.
        let tls = (try? webConfig?.current().get())?.tls != nil
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let client = channel.remoteAddress?.ipAddress ?? "unknown"
                guard limits.openConnection(client: client) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in limits.closeConnection(client: client) }
                do {
                    if tls {
                        guard let source = webConfig, let made = source.tlsContext() else { return channel.close() }
                        let handler = made.acceptAnyClientCertificate
                            ? NIOSSLServerHandler(context: made.context, customVerificationCallback: { _, promise in
                                // RequestClientCert / RequireAnyClientCert: any certificate, unverified (as Go's).
                                promise.succeed(.certificateVerified)
                            })
                            : NIOSSLServerHandler(context: made.context)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    try Self.configure(channel.pipeline.syncOperations, shared: shared, client: client)
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
        // Keeps what /metrics caches current between scrapes, on the renderer's thread (so never beside a
        // scrape's own rendering), so that a scrape finds at most a few seconds of changes to render.
        let backend = self.backend
        let refresh = channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(2), delay: Self.refreshInterval) { _ in
            _ = renderer.runIfActive(eventLoop: channel.eventLoop) { backend.refreshMetrics() }
        }
        defer { refresh.cancel() }
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

    /// How often the background refresh of `/metrics` runs.
    static let refreshInterval = TimeAmount.seconds(3)

    /// The HTTP handlers of one connection, after TLS when there is TLS.
    static func configure(_ pipeline: ChannelPipeline.SynchronousOperations, shared: HTTPRequestHandler.Shared,
                          client: String) throws {
        try pipeline.addHandler(IdleStateHandler(allTimeout: HTTPRequestHandler.amount(shared.limits.options.idleTimeout)))
        try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
        try pipeline.addHandler(HTTPRequestHandler(shared, client: client))
    }
}
