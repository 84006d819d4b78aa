import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc allocator tuning; `mallopt` is not exported by the Glibc module, so it is looked up at run time.
public enum MallocTuning {
    /// `mallopt(M_ARENA_MAX, n)`; M_ARENA_MAX is -8 in glibc's malloc.h.
    public static func limitArenas(_ n: Int32) { mallopt(-8, n) }

    /// `mallopt(M_MMAP_THRESHOLD, bytes)` (-3): the /metrics buffers (megabytes each, every scrape) are
    /// always mapped and unmapped, instead of glibc's sliding threshold moving them into the heap where
    /// freed pages stay resident.
    public static func fixMmapThreshold(_ bytes: Int32) { mallopt(-3, bytes) }

    /// `malloc_trim(0)`: hands the free pages of every arena back to the kernel. Called after each round,
    /// after a reload's replaced results are freed and after a `/metrics` refresh of 16 slices or more,
    /// when many temporaries were just freed (glibc keeps freed heap pages resident otherwise, so memory
    /// would not come back after a big config is replaced).
    public static func trim() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    private static func mallopt(_ parameter: Int32, _ value: Int32) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(parameter, value)
    }
}

/// The open-file limit: every probe and every HTTP client needs a descriptor, and the default soft limit
