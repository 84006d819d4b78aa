import Dispatch
import NIOCore
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders

/// `/metrics` for a large service, kept rendered and compressed a slice of targets at a time.
///
/// The per-target families are nearly all of the exposition (about 4 KB per target: 400 MB at 100,000),
/// and they change only when a probe result does. Each slice of `ResultStore.sliceSize` targets keeps one
/// deflate piece per family; a scrape re-renders only the slices whose results changed since (normally
/// none: `refresh()` also runs in the background every few seconds) and splices the pieces, with the
/// family headers and the small service families, into one gzip member. A client that does not take gzip
/// gets the same pieces inflated one at a time while they are sent, so no scrape holds a whole plain
/// exposition in memory.
public final class ExpositionCache: Sendable {
    /// One slice's rendered families.
    struct Slice: Sendable {
        var version: UInt64
        var certificates: CertificateSeries
        /// One piece per family of `MetricsRenderer.targetFamilies`, in that order.
        var pieces: [DeflatePiece]
        var coverage: [BackupPinCoverage]
        /// The distinct certificates above the leaves of the slice's chains.
        var caCertificates: CACertificates
    }

    /// zlib level of the cached pieces (default 6): compressed once per change, sent many times.
    public let level: Int32

    private let store: ResultStore
    private let slices = NIOLockedValueBox<[Slice?]>([])
    /// The memory's families as last rendered, with the memory version they show.
    private let memory = NIOLockedValueBox<(version: UInt64, piece: DeflatePiece)?>(nil)
    /// The `pinguard_ca_cert_*` families as last rendered, with the slice versions and mode they show.
    private let caCertificates = NIOLockedValueBox<(versions: [UInt64], certificates: CertificateSeries, piece: DeflatePiece)?>(nil)
    /// One refresh at a time: a scrape that arrives during the background refresh waits for it and then
    /// finds the slices current, instead of rendering them a second time.
    private let refreshing = NIOLock()
    private let headers: [DeflatePiece] = MetricsRenderer.targetFamilies.map { DeflatePiece.stored(MetricsRenderer.header($0)) }

    /// A cache of `store`'s results, compressed at zlib `level`.
    public init(store: ResultStore, level: Int32 = 6) {
        self.store = store
        self.level = level
    }

    /// Brings every slice up to date with the store, rendering the changed ones on all cores; returns them.
    @discardableResult
    func refresh(certificates: CertificateSeries) -> [Slice] {
        refreshing.withLock {
            let versions = store.sliceVersions
            var current = slices.withLockedValue { cached -> [Slice?] in
                Array(cached.prefix(versions.count)) + Array(repeating: nil, count: max(0, versions.count - cached.count))
            }
            let stale = versions.indices.filter { i in
                guard let s = current[i] else { return true }
                return s.version != versions[i] || s.certificates != certificates
            }
            if !stale.isEmpty {
                let rendered = NIOLockedValueBox<[Int: Slice]>([:])
                let store = self.store
                let level = self.level
                DispatchQueue.concurrentPerform(iterations: min(stale.count, ExpositionCache.workers)) { worker in
                    let deflater = Deflater(level: level)
                    for i in stride(from: worker, to: stale.count, by: ExpositionCache.workers) {
                        guard let (version, results) = store.slice(stale[i]) else { continue }
                        let buffers = MetricsRenderer.renderTargetFamilies(results, certificates: certificates, headers: false)
                        let slice = Slice(version: version, certificates: certificates, pieces: buffers.map(deflater.piece),
                                          coverage: BackupPinCoverage.compute(results), caCertificates: CACertificates(results, certificates: certificates))
                        rendered.withLockedValue { $0[stale[i]] = slice }
                    }
                }
                for (i, slice) in rendered.withLockedValue({ $0 }) { current[i] = slice }
                slices.withLockedValue { $0 = current }
                // Rendering many slices (after a reload, or a round's worth of results) churned megabytes
                // of temporaries through the renderer threads' heaps: hand the freed pages back, as after a
                // round or a reload, instead of keeping them resident until the next round ends.
                if stale.count >= ExpositionCache.trimAfterSlices { MallocTuning.trim() }
            }
            return current.compactMap { $0 }
        }
    }

    /// Slices rendered in one refresh from which the heap is trimmed afterwards (16,384 targets, about
    /// 64 MB of rendering temporaries; a trim costs a few milliseconds).
    static let trimAfterSlices = 16

    /// Threads that render slices: one per core, at most 4.
    public static let workers = max(1, min(4, System.coreCount))

    /// The exposition for `service` (the snapshot of everything but the per-target results): a gzip
    /// member, or the plain bytes as parts to inflate while sending.
    public func body(service: MetricsSnapshot, gzip: Bool) -> ResponseBody {
        let current = refresh(certificates: service.certificates)
        let tail = DeflatePiece.stored(MetricsRenderer.renderServiceFamilies(service, coverage: BackupPinCoverage.combine(current.map(\.coverage))))
        let fileRows = MetricsRenderer.situationRows(service.fileSituations)
        var ordered: [DeflatePiece] = []
        ordered.reserveCapacity(headers.count * (current.count + 1) + 1)
        for (f, header) in headers.enumerated() {
            ordered.append(header)
            for slice in current { ordered.append(slice.pieces[f]) }
            if let rows = fileRows[f] { ordered.append(DeflatePiece.stored(rows)) }
        }
        ordered.append(caPiece(current, certificates: service.certificates))
        ordered.append(memoryPiece(service.memory))
        ordered.append(tail)
        return ResponseBody(pieces: ordered, gzip: gzip)
    }

    /// The distinct certificates above the leaves of every slice, rendered and compressed again only when a
    /// slice changed.
    private func caPiece(_ current: [Slice], certificates: CertificateSeries) -> DeflatePiece {
        let versions = current.map(\.version)
        if let kept = caCertificates.withLockedValue({ $0 }), kept.versions == versions, kept.certificates == certificates {
            return kept.piece
        }
        let cas = CACertificates.combine(current.map(\.caCertificates))
        let piece = Deflater(level: level).piece(MetricsRenderer.renderCACertificates(cas))
        caCertificates.withLockedValue { $0 = (versions, certificates, piece) }
        return piece
    }

    /// The memory's families, rendered and compressed again only when the memory changed.
    private func memoryPiece(_ facts: ChainMemoryFacts) -> DeflatePiece {
        if let kept = memory.withLockedValue({ $0 }), kept.version == facts.version { return kept.piece }
        let piece = Deflater(level: level).piece(MetricsRenderer.renderMemoryFamilies(facts))
        memory.withLockedValue { $0 = (facts.version, piece) }
        return piece
    }
}
