import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// (1,024) is below what `concurrency` plus a few hundred scrapers can use.
enum FileLimits {
    /// Raises the soft RLIMIT_NOFILE to the hard limit.
    static func raiseToHardLimit() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
