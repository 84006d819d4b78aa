import NIOCore
import NIOHTTP1
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardReaders

/// The routes that call into the service: `/metrics`, `/-/reload` and `/probe`.
extension HTTPRequestHandler {
    func serveMetrics(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        // Each response in flight holds a whole exposition: a few at a time, rendered off the event loop,
        // and never all of them for one client address.
        let limits = shared.limits
        let client = self.client
        guard limits.startScrape(client: client) else {
            return respond(context, h, .serviceUnavailable, "too many /metrics responses in progress\n",
                           extra: [("Retry-After", "5")])
        }
        let backend = shared.backend
        let gzip = Self.takesGzip(h)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        shared.renderer.runIfActive(eventLoop: context.eventLoop) {
            backend.metricsBody(gzip: gzip)
        }.whenComplete { result in
            let (handler, context) = bound.value
            switch result {
            case .success(let body):
                let extra = [("Vary", "Accept-Encoding")] + (body.gzip ? [("Content-Encoding", "gzip")] : [])
                handler.respond(context, h, .ok, body, contentType: MetricsRenderer.contentType, extra: extra,
                                done: { limits.endScrape(client: client) })
            case .failure:
                limits.endScrape(client: client)
                handler.respond(context, h, .serviceUnavailable, "shutting down\n", close: true)
            }
        }
    }

    func reload(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        let backend = shared.backend
        let promise = loop.makePromise(of: Result<LoadedConfiguration, ConfigError>.self)
        promise.completeWithTask { await backend.reload(trigger: "POST /-/reload") }
        promise.futureResult.whenSuccess { result in
            let (handler, context) = bound.value
            switch result {
            case .success(let loaded):
                handler.respond(context, h, .ok, "reloaded \(loaded.path): \(loaded.config.targets.count) targets, \(loaded.policySets.count) policy sets\n")
            case .failure(let error):
                handler.respond(context, h, .badRequest, "reload rejected, previous configuration kept: \(error)\n")
            }
        }
    }

    /// `GET /probe?target=…`: one probe of a target the configuration's `probe_allow` admits.
    func probe(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        guard var asked = ProbeQuery(uri: h.uri) else {
            return respond(context, h, .badRequest, "give exactly one target, each parameter percent-encoded once: /probe?target=HOST[:PORT][&policy_set=NAME][&environment=ENV]\n")
        }
        asked.client = client
        let query = asked
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        let backend = shared.backend
        let gzip = Self.takesGzip(h)
        let promise = loop.makePromise(of: ProbeAnswer.self)
        promise.completeWithTask { await backend.probe(query) }
        promise.futureResult.whenSuccess { answer in
            let (handler, context) = bound.value
            switch answer {
            case .metrics(let chunks):
                let body = ResponseBody(chunks: chunks, gzip: gzip)
                let extra = [("Vary", "Accept-Encoding")] + (body.gzip ? [("Content-Encoding", "gzip")] : [])
                handler.respond(context, h, .ok, body, contentType: MetricsRenderer.contentType, extra: extra)
            case .refused(let code, let reason):
                handler.respond(context, h, HTTPResponseStatus(statusCode: code), reason + "\n")
            case .log(let text):
                handler.respond(context, h, .ok, text)
            }
        }
    }

    /// `GET /`: the status page, rendered on the pages' own thread (it reads every result), never on the
    /// one that serves /metrics.
    func statusPage(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        let backend = shared.backend
        let query = StatusQuery(uri: h.uri)
        servePage(h, context: context) { StatusPage.render(backend.snapshot(), query: query) }
    }

    /// `GET /targets/NAME` (NAME percent-encoded): one target's page; 404 for a name not configured.
    func targetPage(_ h: HTTPRequestHead, name encoded: String, context: ChannelHandlerContext) {
        guard let name = encoded.removingPercentEncoding, let found = shared.backend.target(named: name) else {
            return respond(context, h, .notFound, "no target named \(EchoedInput.quoted(encoded.removingPercentEncoding ?? encoded))\n")
        }
        servePage(h, context: context) { TargetPage.render(found.result, memory: found.memory) }
    }

    /// Renders a page for people with `render` on the pages' thread, within the pages' own in-flight cap
    /// (503 + `Retry-After` beyond it), and sends it.
    private func servePage(_ h: HTTPRequestHead, context: ChannelHandlerContext,
                           render: @escaping @Sendable () -> String) {
        let limits = shared.limits
        let client = self.client
        guard limits.startPage(client: client) else {
            return respond(context, h, .serviceUnavailable, "too many pages in progress\n", extra: [("Retry-After", "5")])
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        shared.pageRenderer.runIfActive(eventLoop: context.eventLoop, render).whenComplete { result in
            let (handler, context) = bound.value
            switch result {
            case .success(let page):
                handler.respond(context, h, .ok, ResponseBody(chunks: [Array(page.utf8)], gzip: false),
                                contentType: "text/html; charset=utf-8", done: { limits.endPage(client: client) })
            case .failure:
                limits.endPage(client: client)
                handler.respond(context, h, .serviceUnavailable, "shutting down\n", close: true)
            }
        }
    }
}
