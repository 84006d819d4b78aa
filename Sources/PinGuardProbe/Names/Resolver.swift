import CResolver
import Foundation
import PinGuardCore
import PinGuardCrypto
#if canImport(Glibc)
import Glibc
#endif

/// Name resolution bounded by the probe's deadline.
///
/// getaddrinfo has no timeout, so names go through glibc's getaddrinfo_a: the lookups run on glibc's own
/// bounded pool of resolver threads (not a thread per lookup), the caller waits in short slices until the
/// answer, the deadline or cancellation, and a lookup abandoned at its deadline is freed once glibc
/// finishes it. Address literals are converted at once, and names the hosts file answers are taken from
/// `HostsFileCache` (`single`: only when the file gives one address, the order of several being
/// getaddrinfo's).
enum Resolver {
    static func resolve(_ name: String, port: Int, single: Bool = false, deadline: Deadline) throws(ProbeError) -> [ResolvedAddress] {
        if Dialer.isIPLiteral(name) { return try literal(name, port: port) }
        if let known = HostsFileCache.shared.addresses(of: name, port: port, single: single) { return known }
        var error: Int32 = 0
        guard let lookup = pg_lookup_start(name, String(port), &error) else {
            throw ProbeError.network("resolve \(name): \(String(cString: gai_strerror(error)))")
        }
        defer { pg_lookup_release(lookup) }
        while true {
            let ms = deadline.remainingMilliseconds
            if ms == 0 { throw ProbeError.network("resolve \(name): timeout after \(PromDuration.format(deadline.seconds))") }
            if deadline.cancelled() { throw ProbeError.network("resolve \(name): cancelled") }
            var list: UnsafeMutablePointer<addrinfo>?
            let rc = pg_lookup_wait(lookup, Int32(min(ms, 100)), &list)
            if rc == PG_LOOKUP_IN_PROGRESS { continue }
            guard rc == 0, let first = list else {
                throw ProbeError.network("resolve \(name): \(String(cString: gai_strerror(rc)))")
            }
            return addresses(first)
        }
    }

    /// An address literal, converted at once (AI_NUMERICHOST never asks a name server): no resolver thread.
    static func literal(_ name: String, port: Int) throws(ProbeError) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(name, String(port), &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard rc == 0, let first = list else { throw ProbeError.network("resolve \(name): \(String(cString: gai_strerror(rc)))") }
        return addresses(first)
    }

    /// Lookups abandoned at their deadline that glibc has not finished yet.
    static var abandonedLookups: Int { Int(pg_lookup_abandoned()) }

    /// The addresses of a getaddrinfo list, copied out.
    static func addresses(_ first: UnsafeMutablePointer<addrinfo>) -> [ResolvedAddress] {
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
        return out
    }
}

/// The endpoints of one probe request: what resolution reports and the addresses to dial, in order.
public struct ResolvedTarget: Sendable {
    /// Every resolved address (stable order), how many are skipped, or the error.
    public var resolution: AddressResolution
    /// Addresses to probe: with `resolve: all`, the first `max_addresses` in the stable order; with
    /// `resolve: first`, every address in resolver order (the first that answers is probed).
    public var dial: [ResolvedAddress]
    /// Every resolved address, in the stable order (what an address allowlist checks).
    public var all: [ResolvedAddress] = []

    /// The same endpoints refused because an address is outside `allow`; nil when every address is inside.
    public func refused(by allow: ProbeAllowlist, host: String, port: Int) -> ResolvedTarget? {
        guard let bad = all.first(where: { !allow.permits(address: $0.bytes) }) else { return nil }
        var r = self
        r.resolution.error = "address \(bad.description(port: port)) of \(host) is not allowed by probe_allow"
        r.resolution.refusedAddress = bad.description(port: port)
        r.dial = []
        return r
    }
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
                for a in try resolve(name, port: request.port, single: request.resolve == .first, deadline: deadline)
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
            return ResolvedTarget(resolution: AddressResolution(addresses: texts), dial: found, all: stable)
        case .all:
            let limit = max(request.maxAddresses, 1)
            return ResolvedTarget(resolution: AddressResolution(addresses: texts, skipped: max(stable.count - limit, 0)),
                                  dial: Array(stable.prefix(limit)), all: stable)
        }
    }
}
