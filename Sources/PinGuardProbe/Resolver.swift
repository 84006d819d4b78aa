import Foundation
import PinGuardCore
#if canImport(Glibc)
import Glibc
#endif

/// Name resolution bounded by the probe's deadline.
///
/// getaddrinfo has no timeout, so a name (not an address literal) is resolved on a short-lived thread;
/// at the deadline the probe gives up and the thread finishes on its own.
enum Resolver {
    final class Outcome: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<[ResolvedAddress], ProbeError> = .success([])
    }

    static func resolve(_ name: String, port: Int, deadline: Deadline) throws(ProbeError) -> [ResolvedAddress] {
        if Dialer.isIPLiteral(name) { return try lookup(name, port: port, numeric: true).get() }
        let outcome = Outcome()
        let thread = Thread {
            outcome.result = lookup(name, port: port, numeric: false)
            outcome.done.signal()
        }
        thread.start()
        while true {
            let ms = deadline.remainingMilliseconds
            if ms == 0 { throw ProbeError("resolve \(name): timeout after \(PromDuration.format(deadline.seconds))") }
            if deadline.cancelled() { throw ProbeError("resolve \(name): cancelled") }
            if outcome.done.wait(timeout: .now() + .milliseconds(Int(min(ms, 100)))) == .success {
                return try outcome.result.get()
            }
        }
    }

    static func lookup(_ name: String, port: Int, numeric: Bool) -> Result<[ResolvedAddress], ProbeError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        if numeric { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(name, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            return .failure(ProbeError("resolve \(name): \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(first) }
        var out: [ResolvedAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            guard let sa = ai.pointee.ai_addr else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { dst in
                dst.copyMemory(from: UnsafeRawBufferPointer(start: sa, count: Int(ai.pointee.ai_addrlen)))
            }
            out.append(ResolvedAddress(family: ai.pointee.ai_family, storage: storage, length: ai.pointee.ai_addrlen))
        }
        return .success(out)
    }
}

/// The endpoints of one probe request: what resolution reports and the addresses to dial, in order.
public struct ResolvedTarget: Sendable {
    /// Every resolved address (stable order), how many are skipped, or the error.
    public var resolution: AddressResolution
    /// Addresses to probe: with `resolve: all`, the first `max_addresses` in the stable order; with
    /// `resolve: first`, every address in resolver order (the first that answers is probed).
    public var dial: [ResolvedAddress]
}

extension Resolver {
    /// Resolves the request's `connect` list (or its host): deduplicated, IPv4 before IPv6, then by address.
    /// A name that fails while another resolves is left out; when nothing resolves, the last error is the
    /// resolution's error.
    static func resolve(_ request: ProbeRequest, deadline: Deadline) -> ResolvedTarget {
        var found: [ResolvedAddress] = []
        var seen = Set<String>()
        var lastError: String?
        for name in request.dialNames {
            do {
                for a in try resolve(name, port: request.port, deadline: deadline)
                where seen.insert(a.description(port: request.port)).inserted {
                    found.append(a)
                }
            } catch {
                lastError = error.message
            }
        }
        guard !found.isEmpty else {
            return ResolvedTarget(resolution: AddressResolution(error: lastError ?? "resolve \(request.host): no address"), dial: [])
        }
        let stable = found.sorted { a, b in
            a.isIPv6 != b.isIPv6 ? !a.isIPv6 : a.bytes.lexicographicallyPrecedes(b.bytes)
        }
        let texts = stable.map { $0.description(port: request.port) }
        switch request.resolve {
        case .first:
            return ResolvedTarget(resolution: AddressResolution(addresses: texts), dial: found)
        case .all:
            let limit = max(request.maxAddresses, 1)
            return ResolvedTarget(resolution: AddressResolution(addresses: texts, skipped: max(stable.count - limit, 0)),
                                  dial: Array(stable.prefix(limit)))
        }
    }
}
