import COpenSSL
import Foundation
import PinGuardCore

/// What in a served chain puts a client at risk even when it still builds a path (docs/client-paths.md,
/// Served-chain hazards): a chain that ends at a self-signed root the client's store lacks, and an expired
/// certificate authority certificate still sent (an expired cross-sign some validators anchor at).
enum ServedChainHazards {
    /// The hazards of `served` for the client of `store` with the roots `present`, given the path it chose.
    static func find(served: [OpaquePointer], finding: PathFinding, store: ClientStore, present: Set<Int>,
                     at time: Date) -> [String] {
        var out: [String] = []
        if served.count > 1, let last = served.last, selfSigned(last), !inStore(last, store: store, present: present) {
            out.append("the server sends the self-signed root \(CertificateReader.name(X509_get_subject_name(last))), which this store does not hold")
        }
        for (i, x) in served.enumerated().dropFirst() where X509_check_ca(x) != 0 {
            let notAfter = CertificateReader.time(X509_get0_notAfter(x))
            guard notAfter < time else { continue }
            let used = finding.links.contains(.served(i)) ? "on the path this client builds" : "not on the path this client builds"
            out.append("the server still sends \(CertificateReader.name(X509_get_subject_name(x))) issued by \(CertificateReader.name(X509_get_issuer_name(x))), expired \(PathCheck.day(notAfter)) (\(used))")
        }
        return out
    }

    /// Whether `x` names itself as issuer and its own key verifies it.
    static func selfSigned(_ x: OpaquePointer) -> Bool {
        X509_NAME_cmp(X509_get_subject_name(x), X509_get_issuer_name(x)) == 0 && PathSearch.signed(x, by: x)
    }

    /// Whether a root present in the store has `x`'s subject and key.
    static func inStore(_ x: OpaquePointer, store: ClientStore, present: Set<Int>) -> Bool {
        store.roots(named: ClientStore.nameDER(X509_get_subject_name(x)), in: present).contains { r in
            EVP_PKEY_eq(X509_get0_pubkey(store.roots[r]), X509_get0_pubkey(x)) == 1
        }
    }
}
