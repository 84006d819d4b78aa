import Foundation
import PinGuardFiles
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto

/// Finds the `@raw/NAME` certificates an Android network security config names, in the app's `res/` directory,
/// and hashes their SubjectPublicKeyInfo (the core reads no files and has no digest of its own).
enum AndroidResources {
    /// Extensions Android apps give raw certificate resources; the resource name is the file name without one.
    static let extensions = ["pem", "crt", "cer", "der", "cert", ""]

    /// Every `@raw/NAME` in `xml`, resolved against `resDir` (or the `res/` the XML file sits in).
    static func resolve(xml: [UInt8], xmlPath: String, resDir: String?) -> [String: ImportResource] {
        let text = String(decoding: xml, as: UTF8.self)
        var names: [String] = []
        var rest = Substring(text)
        while let r = rest.range(of: "@raw/") {
            let name = rest[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            if !name.isEmpty, !names.contains(String(name)) { names.append(String(name)) }
            rest = rest[r.upperBound...]
        }
        guard !names.isEmpty else { return [:] }
        let res = resDir ?? inferredResDir(xmlPath)
        var out: [String: ImportResource] = [:]
        for name in names {
            let src = "@raw/\(name)"
            guard let res else {
                out[src] = .missing("the XML is not in a res/xml* directory, so res/raw/\(name) cannot be located; pass --res DIR")
                continue
            }
            let raw = (res as NSString).appendingPathComponent("raw")
            let candidates = extensions.map { $0.isEmpty ? name : "\(name).\($0)" }
            guard let file = candidates.map({ (raw as NSString).appendingPathComponent($0) })
                .first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                out[src] = .missing("no \(raw)/\(name).{pem,crt,cer,der}; give the app's res/ directory with --res DIR")
                continue
            }
            guard let data = try? RegularFile.read(file, maxBytes: InputFile.certificateLimit) else {
                out[src] = .unreadable("\(file) cannot be read (not a readable regular file of at most 16 MiB)")
                continue
            }
            do {
                out[src] = .spki(try ImportResource.subjectPublicKeyInfos([UInt8](data)).map(CertificateReader.sha256Base64))
            } catch {
                out[src] = .unreadable("\(file): \(error.message)")
            }
        }
        return out
    }

    /// `…/res` for an XML file in `…/res/xml/` (or a qualified `xml-v24/` folder), else nil.
    static func inferredResDir(_ xmlPath: String) -> String? {
        let dir = (xmlPath as NSString).deletingLastPathComponent
        let folder = (dir as NSString).lastPathComponent
        guard folder == "xml" || folder.hasPrefix("xml-") else { return nil }
        let res = (dir as NSString).deletingLastPathComponent
        return (res as NSString).lastPathComponent == "res" || FileManager.default.fileExists(atPath: (res as NSString).appendingPathComponent("raw"))
            ? res : nil
    }
}
