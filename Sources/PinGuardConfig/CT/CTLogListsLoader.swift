import Foundation
import PinGuardCore
import PinGuardFiles
import PinGuardReaders

/// Loads the CT log lists judging uses: for each of Apple's and Chrome's, a replacement file when one is
/// given, else the copy bundled with pinguard (`Resources/ct_log_list_<name>.json`; see CT_LOG_LISTS.md). A list
/// given by URL loads as the bundled copy: the service puts the fetched one in force (`LogListRefresher`). A file
/// whose bytes did not change since it was last read is not parsed again (`CTLogListMemo`).
public enum CTLogListsLoader {
    /// The bundled copy's file name for list `name`.
    public static func bundledFileName(_ name: CTLogListName) -> String { "ct_log_list_\(name.rawValue).json" }

    /// Every list: the file `replacements[name]` (resolved against `folder` when relative) or the bundled
    /// copy, also for a URL. `executable` is where the bundled copies are looked for (see `BundledResource`).
    public static func load(replacements: [CTLogListName: String], relativeTo folder: String?,
                            executable: URL? = Bundle.main.executableURL) throws(ConfigError) -> [CTLogListName: CTLogList] {
        var lists: [CTLogListName: CTLogList] = [:]
        for name in CTLogListName.allCases {
            if case .file(let file) = CTLogListSource(configured: replacements[name]) {
                lists[name] = try replacement(name, file: ConfigurationLoader.resolve(file, against: folder ?? ""))
            } else {
                lists[name] = try bundled(name, executable: executable)
            }
        }
        return lists
    }

    /// The list in `file`, given in place of the bundled one.
    public static func replacement(_ name: CTLogListName, file: String) throws(ConfigError) -> CTLogList {
        let bytes: [UInt8]
        do throws(RegularFileError) { bytes = try RegularFile.read(file, maxBytes: CTLogListReader.maxBytes) } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "\(name.rawValue) CT log list: \(error.reason)")
        }
        return try CTLogListMemo.shared.list(bytes, name: name, file: file, origin: file)
    }

    /// The bundled copy of list `name`; an installation without it is refused, naming the file to restore
    /// or the replacement to give, rather than judged against no logs.
    public static func bundled(_ name: CTLogListName, executable: URL? = Bundle.main.executableURL) throws(ConfigError) -> CTLogList {
        let fileName = bundledFileName(name)
        guard let file = BundledResource.path(fileName, executable: executable) else {
            throw ConfigError(file: fileName, line: nil, key: nil,
                              message: "the bundled \(name.rawValue) CT log list is not found \(BundledResource.whereSought); "
                                  + "set \(BundledResource.dataDirVariable) to the folder of pinguard's data files, or give a replacement file")
        }
        let bytes: [UInt8]
        do throws(RegularFileError) { bytes = try RegularFile.read(file, maxBytes: CTLogListReader.maxBytes) } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "bundled \(name.rawValue) CT log list: \(error.reason)")
        }
        return try CTLogListMemo.shared.list(bytes, name: name, file: file, origin: "bundled")
    }
}
