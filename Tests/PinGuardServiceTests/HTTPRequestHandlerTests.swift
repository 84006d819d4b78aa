import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// The request handler on an in-memory channel with a stand-in backend and a virtual clock: deadlines,
/// the body limit, the lifecycle switch and basic authentication, without processes or sleeps.
final class HTTPRequestHandlerTests: XCTestCase {
    /// A backend that is always ready and refuses reloads.
    struct StandInBackend: EndpointBackend {
        func snapshot() -> MetricsSnapshot { MetricsSnapshot() }
        var isReady: Bool { true }
        func reload(trigger: String) async -> Result<LoadedConfiguration, ConfigError> {
            .failure(ConfigError(file: "stand-in", line: nil, key: nil, message: "no reloads here"))
        }
    }

    var renderer: NIOThreadPool!
    var authenticator: BasicAuthenticator!

    override func setUp() {
        renderer = NIOThreadPool(numberOfThreads: 1)
        renderer.start()
        authenticator = BasicAuthenticator()
    }

    override func tearDown() {
        try? renderer.syncShutdownGracefully()
        authenticator.shutdown()
    }

    /// A connected channel with the server's HTTP handlers.
    func channel(_ options: HTTPEndpointOptions = HTTPEndpointOptions(), webConfig: WebConfigSource? = nil) throws -> EmbeddedChannel {
        let shared = HTTPRequestHandler.Shared(backend: StandInBackend(), limits: HTTPLimits(options), renderer: renderer,
                                               pageRenderer: renderer,
                                               webConfig: webConfig, authenticator: authenticator)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
        try channel.pipeline.syncOperations.addHandler(HTTPRequestHandler(shared, client: "127.0.0.1"))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9477)).wait()
        return channel
    }

    /// Everything the server wrote so far, as text. The handler continues a body from the event loop's
    /// queue after each piece, so the embedded loop runs until the writes stop.
    func written(_ channel: EmbeddedChannel) throws -> String {
        var out = ""
        while true {
            channel.embeddedEventLoop.run()
            var more = false
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
                out += String(buffer: buffer)
                more = true
            }
            if !more { return out }
        }
    }

    func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    func testReloadIsForbiddenWithoutTheLifecycleFlag() throws {
        let channel = try channel()
        try send(channel, "POST /-/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let reply = try written(channel)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 403 Forbidden\r\n"), reply)
        XCTAssertTrue(reply.contains("Lifecycle API is not enabled."), reply)
        XCTAssertTrue(reply.contains("--web.enable-lifecycle"), "the answer names the flag: \(reply)")
    }

    func testHealthyAnswersLikeHealthz() throws {
        let channel = try channel()
        try send(channel, "GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try written(channel)
        XCTAssertEqual(reply.components(separatedBy: "HTTP/1.1 200 OK\r\n").count - 1, 2, reply)
        XCTAssertTrue(reply.hasSuffix("ok\n"), reply)
    }

    func testTrickledBytesDoNotExtendTheRequestHeadDeadline() throws {
        let channel = try channel()
        let loop = channel.embeddedEventLoop
        // 24 pieces ("\r\n" is one Character), 300 ms apart: 7.2 s.
        for byte in "GET /metrics HTTP/1.1\r\nHo" {
            try send(channel, String(byte))
            loop.advanceTime(by: .milliseconds(300))
        }
        XCTAssertTrue(channel.isActive, "7.2 s in, under the 10 s deadline")
        loop.advanceTime(by: .seconds(2))
        XCTAssertTrue(channel.isActive)
        try send(channel, "s")
        loop.advanceTime(by: .milliseconds(900))
        XCTAssertFalse(channel.isActive, "closed 10 s after the connection opened, although a byte came 0.9 s ago")
    }

    func testTheHeadDeadlineRestartsAfterEachResponse() throws {
        var options = HTTPEndpointOptions()
        options.readHeaderTimeout = 3
        let channel = try channel(options)
        let loop = channel.embeddedEventLoop
        loop.advanceTime(by: .seconds(2))
        try send(channel, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(try written(channel).hasPrefix("HTTP/1.1 200 OK"))
        loop.advanceTime(by: .milliseconds(2_900))
        XCTAssertTrue(channel.isActive, "a keep-alive connection gets a new 3 s for its next head")
        loop.advanceTime(by: .milliseconds(200))
        XCTAssertFalse(channel.isActive)
    }

    func testDeclaredBodyOverTheLimitIsRefusedBeforeTheBodyArrives() throws {
        let channel = try channel()
        // EmbeddedChannel closes both directions at once (a socket only stops sending, and reads on for 2 s):
        // the decoder then reports the body it never got, which is expected here.
        _ = try? send(channel, "POST /-/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
        let reply = try written(channel)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), reply)
        XCTAssertTrue(reply.contains("Connection: close"), reply)
        XCTAssertFalse(channel.isActive, "closed without waiting for 10 MB")
    }

    func testChunkedBodyIsRefusedOnceItPassesTheLimit() throws {
        let channel = try channel()
        try send(channel, "POST /-/reload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "x", count: 40_000)
        try send(channel, "9c40\r\n\(chunk)\r\n")
        XCTAssertEqual(try written(channel), "", "40,000 bytes are within the limit")
        _ = try? send(channel, "9c40\r\n\(chunk)\r\n")
        let reply = try written(channel)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 413"), "refused at 80,000 bytes, before the body ends: \(reply)")
        XCTAssertFalse(channel.isActive)
    }

    func testBasicAuthenticationIsAskedFor() throws {
        let dir = try TemporaryDirectory.make("pinguard-handler-auth")
        let hash = try XCTUnwrap(BasicAuthenticator.crypt("secret", setting: "$2b$04$abcdefghijklmnopqrstuu"))
        let file = try PolicyYAML.write("basic_auth_users:\n  alice: \"\(hash)\"\nhttp_server_config:\n  headers:\n    X-Frame-Options: deny\n",
                                        to: dir, as: "web.yml")
        let channel = try channel(webConfig: try WebConfigSource(path: file))
        try send(channel, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        var reply = try written(channel)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"), reply)
        XCTAssertTrue(reply.contains("WWW-Authenticate: Basic\r\n"), reply)
        XCTAssertTrue(reply.contains("X-Frame-Options: deny\r\n"), "configured headers are on every response: \(reply)")
        try send(channel, "GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer abc\r\n\r\n")
        reply = try written(channel)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 401"), "not Basic: \(reply)")
    }

    func testScrapesArePerClientAndOverallLimited() {
        var options = HTTPEndpointOptions()
        options.maxScrapes = 3
        options.maxScrapesPerClient = 2
        let limits = HTTPLimits(options)
        XCTAssertTrue(limits.startScrape(client: "a"))
        XCTAssertTrue(limits.startScrape(client: "a"))
        XCTAssertFalse(limits.startScrape(client: "a"), "one client holds at most 2")
        XCTAssertTrue(limits.startScrape(client: "b"))
        XCTAssertFalse(limits.startScrape(client: "c"), "3 in flight overall")
        limits.endScrape(client: "a")
        XCTAssertTrue(limits.startScrape(client: "c"))
    }

    func testPagesForPeopleHaveTheirOwnSlotsApartFromScrapes() {
        let limits = HTTPLimits(HTTPEndpointOptions())
        XCTAssertTrue(limits.startPage(client: "a"))
        XCTAssertFalse(limits.startPage(client: "a"), "one page in flight per address by default")
        XCTAssertTrue(limits.startPage(client: "b"))
        XCTAssertFalse(limits.startPage(client: "c"), "2 pages in flight overall")
        XCTAssertTrue(limits.startScrape(client: "a"), "pages never take a scrape's slot")
        XCTAssertTrue(limits.startScrape(client: "c"))
        limits.endPage(client: "a")
        XCTAssertTrue(limits.startPage(client: "c"))
    }

    func testConnectionsArePerClientAndOverallLimited() {
        var options = HTTPEndpointOptions()
        options.maxConnections = 5
        options.maxConnectionsPerClient = 2
        let limits = HTTPLimits(options)
        XCTAssertTrue(limits.openConnection(client: "a"))
        XCTAssertTrue(limits.openConnection(client: "a"))
        XCTAssertFalse(limits.openConnection(client: "a"))
        limits.closeConnection(client: "a")
        XCTAssertTrue(limits.openConnection(client: "a"), "a closed connection frees its place")
        XCTAssertTrue(limits.openConnection(client: "b"))
        XCTAssertTrue(limits.openConnection(client: "b"))
        XCTAssertTrue(limits.openConnection(client: "c"))
        XCTAssertFalse(limits.openConnection(client: "d"), "5 connections overall")
    }
}
