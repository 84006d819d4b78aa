import COpenSSL
import Foundation
import PinGuardCore

/// One client's trust store, parsed: the roots of a `ClientStoreData` as OpenSSL certificates, found by
/// subject name, each with the versions of the client whose store holds it (docs/client-paths.md).
/// Immutable after creation; read from many threads.
public final class ClientStore: @unchecked Sendable {
    /// The data the store was made from (certificates aside, which it holds parsed).
    public let data: ClientStoreData
    /// The roots, in the data's order.
    let roots: [OpaquePointer]
    /// Root indexes by the DER of their subject name.
    private let bySubject: [[UInt8]: [Int]]

    /// Parses every root of `data`; throws naming the first root that is not a certificate.
    public init(_ data: ClientStoreData) throws(ProbeError) {
        var parsed: [OpaquePointer] = []
        var index: [[UInt8]: [Int]] = [:]
        for root in data.roots {
            guard let x = root.der.withUnsafeBufferPointer({ buffer -> OpaquePointer? in
                var p = buffer.baseAddress
                return d2i_X509(nil, &p, buffer.count)
            }) else {
                parsed.forEach { X509_free($0) }
                throw ProbeError("the \(data.client.rawValue) trust store's root \(root.subject) is not a DER certificate")
            }
            index[Self.nameDER(X509_get_subject_name(x)), default: []].append(parsed.count)
            parsed.append(x)
        }
        self.data = data
        self.roots = parsed
        self.bySubject = index
    }

    deinit { roots.forEach { X509_free($0) } }

    /// The DER of `name`, the key roots are found by (what a client compares issuer and subject names by).
    static func nameDER(_ name: OpaquePointer?) -> [UInt8] {
        var der: UnsafePointer<UInt8>?
        var length = 0
        guard let name, X509_NAME_get0_der(name, &der, &length) == 1, let der else { return [] }
        return Array(UnsafeBufferPointer(start: der, count: length))
    }

    /// The roots, among `present`, whose subject is `name`.
    func roots(named name: [UInt8], in present: Set<Int>) -> [Int] {
        (bySubject[name] ?? []).filter { present.contains($0) }
    }

    /// The date after which leaves under root `r` are not trusted in `versions`: its distrust date, else the
    /// earliest dated distrust among the changes ahead that reaches those versions (announced cut-offs, such as
    /// Chrome Root Store `sct_not_after` dates to come); nil when neither says one.
    func distrustAfter(of r: Int, in versions: ClientVersions?) -> Date? {
        let root = data.roots[r]
        func reaches(_ change: ClientStoreData.Change) -> Bool {
            guard let affected = change.versions, let versions else { return true }
            return affected.intersection(versions) != nil
        }
        let ahead = data.changes.filter { $0.kind == .distrusted && $0.certSHA256 == root.certSHA256 && reaches($0) }
            .compactMap(\.date).min()
        return [root.distrustAfter, ahead].compactMap { $0 }.min()
    }

    /// Every root whose subject is `name`, whatever its versions.
    func roots(named name: [UInt8]) -> [Int] { bySubject[name] ?? [] }

    /// The roots present in each range of versions where the store holds the same roots, restricted to those
    /// `relevant` (the roots a served chain can reach): ranges that hold the same relevant roots are one.
    /// A store without versions gives one range, nil.
    func segments(relevant: Set<Int>) -> [(versions: ClientVersions?, present: Set<Int>)] {
        guard let known = data.versionsKnown else { return [(nil, relevant)] }
        var cuts: Set<Int> = [known.lower]
        for i in relevant {
            guard let v = data.roots[i].versions else { continue }
            if known.contains(v.lower) { cuts.insert(v.lower) }
            if let next = v.upper.map({ $0 + 1 }), known.contains(next) { cuts.insert(next) }
        }
        let starts = cuts.sorted()
        var out: [(versions: ClientVersions?, present: Set<Int>)] = []
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] - 1 : known.upper
            let present = relevant.filter { data.roots[$0].versions?.contains(start) ?? true }
            if let last = out.last, last.present == present, let lv = last.versions {
                out[out.count - 1].versions = ClientVersions(lower: lv.lower, upper: end)
            } else {
                out.append((ClientVersions(lower: start, upper: end), present))
            }
        }
        return out
    }
}
