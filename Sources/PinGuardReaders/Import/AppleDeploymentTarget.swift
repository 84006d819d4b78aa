import PinGuardCore

/// The lowest iOS release an app runs on (its deployment target), read from the file that declares it: an Xcode
/// project or build settings file (`IPHONEOS_DEPLOYMENT_TARGET = 15.0;` in `project.pbxproj` or an `.xcconfig`), a
/// `Podfile` (`platform :ios, '15.0'`), a `Package.swift` (`.iOS(.v15)`, `.iOS("15.0")`), or a built app's
/// `Info.plist` (`MinimumOSVersion`, XML or binary). It sets the iOS versions an imported set is judged on
/// (`client_versions: "15-"`), as an Android app's `minSdk` does.
public enum AppleDeploymentTarget {
    /// The largest file read (an Xcode project of a large app is a few hundred kilobytes).
    public static let maxBytes = 4 << 20

    /// The deployment target declared in `bytes` (named `file`): its major release, as written, and its line
    /// (nil in a binary plist). A project declares one per target and configuration: the lowest is the app's
    /// floor (an extension or a test target set lower counts too; give the app's own file to narrow it).
    /// - Throws: `ImportError` naming the file when it declares none as a literal version.
    public static func read(_ bytes: [UInt8], file: String) throws(ImportError) -> (major: Int, written: String, line: Int?) {
        guard bytes.count <= maxBytes else {
            throw ImportError(file: file, line: nil, message: "larger than \(maxBytes) bytes; not an Xcode project, Podfile, Package.swift or Info.plist")
        }
        var found: [(major: Int, written: String, line: Int?)] = []
        if isPropertyList(bytes) {
            let root = try PropertyListDocument.parse(bytes, file: file).root
            if let entry = root.entry("MinimumOSVersion"), let text = entry.value.string, let major = major(of: text) {
                found.append((major, text, entry.keyLine))
            }
        } else {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for (k, line) in lines.enumerated() {
                if let text = declaredValue(in: line), let major = major(of: text) { found.append((major, text, k + 1)) }
            }
        }
        guard let lowest = found.min(by: { $0.major < $1.major }) else {
            throw ImportError(file: file, line: nil, message: "no iOS deployment target written as a version (IPHONEOS_DEPLOYMENT_TARGET, "
                + "Podfile platform :ios, Package.swift .iOS(...), Info.plist MinimumOSVersion); give the app's own project file")
        }
        return lowest
    }

    /// Whether `bytes` are a property list, binary or XML (a `<plist` element within its first 512 bytes).
    public static func isPropertyList(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("bplist".utf8)) || String(decoding: bytes.prefix(512), as: UTF8.self).contains("<plist")
    }

    /// The version one line of a project, Podfile or package manifest declares; nil when it declares none (a
    /// `//` or `#` comment does not count, nor a build-setting reference such as `$(RECOMMENDED_...)`).
    static func declaredValue(in line: Substring) -> String? {
        let code = line.drop { $0 == " " || $0 == "\t" }
        guard !code.hasPrefix("//"), !code.hasPrefix("#"), !code.hasPrefix("/*") else { return nil }
        if let r = code.range(of: "IPHONEOS_DEPLOYMENT_TARGET") {
            let rest = code[r.upperBound...].drop { " \t".contains($0) }
            guard rest.first == "=" else { return nil }
            return version(rest.dropFirst().drop { " \t\"".contains($0) })
        }
        if let r = code.range(of: "platform :ios") {
            return version(code[r.upperBound...].drop { " \t,'\"".contains($0) })
        }
        if let r = code.range(of: ".iOS(") {
            var rest = code[r.upperBound...].drop { " \t\"".contains($0) }
            if rest.hasPrefix(".v") { rest = rest.dropFirst(2) }
            return version(rest).map { $0.replacingOccurrences(of: "_", with: ".") }
        }
        return nil
    }

    /// The digits, dots and underscores at the start of `text`; nil when it starts with none.
    static func version(_ text: Substring) -> String? {
        let value = text.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "_") }
        return value.first?.isNumber == true ? String(value) : nil
    }

    /// The major release of a version such as `15.0` or `12.4.1`; nil when it is not one iOS has had or may have.
    static func major(of text: String) -> Int? {
        guard let first = text.split(separator: ".").first, let major = Int(first), (2...99).contains(major) else { return nil }
        return major
    }
}
