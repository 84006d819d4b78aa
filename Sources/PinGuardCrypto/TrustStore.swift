import COpenSSL
import Foundation
import PinGuardCore
import PinGuardFiles

/// The trust anchors a chain is verified against, as OpenSSL holds them: the configured CA file (a regular
/// file only), else the system trust store.
enum TrustStore {
    /// A new `X509_STORE` of `caFile`, else of the system store; the caller frees it with `X509_STORE_free`.
    static func make(caFile: String?) throws(ProbeError) -> OpaquePointer {
        guard let store = X509_STORE_new() else { throw ProbeError.openSSL("trust store") }
        if let caFile {
            do throws(RegularFileError) { try RegularFile.check(caFile) } catch {
                X509_STORE_free(store)
                throw ProbeError("CA file \(error)")
            }
            guard X509_STORE_load_file(store, caFile) == 1 else {
                X509_STORE_free(store)
                throw ProbeError.openSSL("cannot load CA file \(caFile)")
            }
        } else if X509_STORE_set_default_paths(store) != 1 {
            X509_STORE_free(store)
            throw ProbeError.openSSL("cannot load the system trust store")
        }
        return store
    }
}
