import Foundation
import PinGuardFiles
import PinGuardCore
import PinGuardReaders

/// Finds the public suffix list `lint` and `serve` check patterns against: the copy bundled with pinguard
/// (a SwiftPM resource, dated `bundledDate`), or the system's copy when that one is newer.
///
/// The resource is looked up next to the executable (`pinguard_PinGuardConfig.resources/`, where SwiftPM puts
/// it) and in `../share/pinguard/` (where an installation copies it), not through `Bundle.module`, whose
/// accessor stops the process when an installed binary has no bundle beside it.
public enum PublicSuffixListLoader {
    /// Debian's copy (package `publicsuffix`).
    public static let systemPath = "/usr/share/publicsuffix/public_suffix_list.dat"
    /// Date of the bundled copy (Debian publicsuffix 20230209.2326-1); see Resources/PUBLIC_SUFFIX_LIST.md.
    public static let bundledDate = "2023-02-09"
    /// File name of the list, in the resource bundle and in `share/pinguard/`.
    static let fileName = "public_suffix_list.dat"

    /// The bundled copy, when one is found.
    public static func bundledPath(executable: URL? = Bundle.main.executableURL) -> String? {
        BundledResource.path(fileName, executable: executable)
    }

    /// The list to use: the system's copy at `systemPath` when it is dated later than the bundled one (or no
    /// bundled copy is found), else the bundled copy; an empty list, saying so, when neither can be read.
    public static func load(systemPath: String = PublicSuffixListLoader.systemPath,
                            bundledPath: String? = PublicSuffixListLoader.bundledPath()) -> LoadedPublicSuffixList {
        let bundled = bundledPath.flatMap(read)
        let system = read(systemPath)
        if let system {
            let date = listDate(system) ?? modificationDate(systemPath)
            if bundled == nil || (date ?? "") > bundledDate {
                return LoadedPublicSuffixList(list: PublicSuffixList(text: system),
                                              source: "system copy \(systemPath)\(date.map { " (\($0))" } ?? "")")
            }
        }
        if let bundled {
            let newer = system == nil ? "" : "; not older than \(systemPath)"
            return LoadedPublicSuffixList(list: PublicSuffixList(text: bundled),
                                          source: "bundled copy (\(bundledDate)\(newer))")
        }
        return LoadedPublicSuffixList(list: PublicSuffixList(text: ""),
                                      source: "none: neither the bundled copy nor \(systemPath) is readable; only single-label suffixes are checked",
                                      isMissing: true)
    }

    /// The list in `path` (`--public-suffix-list FILE`); nil when it cannot be read.
    public static func load(path: String) -> LoadedPublicSuffixList? {
        guard let text = read(path) else { return nil }
        let date = listDate(text) ?? modificationDate(path)
        return LoadedPublicSuffixList(list: PublicSuffixList(text: text), source: "\(path)\(date.map { " (\($0))" } ?? "")")
    }

    /// The date in a list's `// VERSION: 2024-05-01_…` header line (lists published since 2023 have one).
    public static func listDate(_ text: String) -> String? {
        for line in text.split(maxSplits: 40, whereSeparator: \.isNewline).prefix(40) where line.hasPrefix("// VERSION:") {
            let value = line.dropFirst("// VERSION:".count).trimmingCharacters(in: .whitespaces)
            let day = String(value.prefix(10))
            if day.count == 10, RFC3339.parse(day + "T00:00:00Z") != nil { return day }
        }
        return nil
    }

    static func modificationDate(_ path: String) -> String? {
        guard let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
        return String(RFC3339.format(date).prefix(10))
    }

    /// The file as text, when it is a readable regular file of at most 16 MiB (the list is about 250 KB).
    static func read(_ path: String) -> String? {
        guard let bytes = try? RegularFile.read(path, maxBytes: 16 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
