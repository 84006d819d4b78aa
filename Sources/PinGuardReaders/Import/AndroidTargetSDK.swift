import PinGuardCore

/// The API level an Android app targets, read from the file that declares it: `AndroidManifest.xml`
/// (`<uses-sdk android:targetSdkVersion="N"/>`) or a Gradle build file (`targetSdk = N`, `targetSdkVersion N`,
/// `targetSdkVersion(N)`, Groovy or Kotlin DSL). It sets Android's default for Certificate Transparency; the
/// app's `minSdk` from the same file sets the Android versions it is judged on (`client_versions`).
public enum AndroidTargetSDK {
    /// The largest file read.
    public static let maxBytes = 1 << 20

    /// The target API level declared in `bytes` (named `file`), with the line it is on.
    /// - Throws: `ImportError` naming the file when it declares none, or one that is not a literal number.
    public static func read(_ bytes: [UInt8], file: String) throws(ImportError) -> (sdk: Int, line: Int) {
        guard bytes.count <= maxBytes else {
            throw ImportError(file: file, line: nil, message: "larger than \(maxBytes) bytes; not an AndroidManifest.xml or Gradle file")
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (k, line) in lines.enumerated() {
            guard let value = declaredValue(in: line) else { continue }
            guard let sdk = Int(value), (1...10_000).contains(sdk) else {
                throw ImportError(file: file, line: k + 1,
                                  message: "the target SDK is \(EchoedInput.quoted(value)), not a number pinguard can read; give it with --target-sdk N")
            }
            return (sdk, k + 1)
        }
        throw ImportError(file: file, line: nil,
                          message: "no targetSdkVersion (AndroidManifest.xml) or targetSdk (Gradle) found; give the API level with --target-sdk N")
    }

    /// The lowest API level the app runs on (`minSdkVersion` in AndroidManifest.xml, `minSdk` or `minSdkVersion`
    /// in Gradle), with its line; nil when the file declares none as a literal number.
    public static func readMinimum(_ bytes: [UInt8]) -> (sdk: Int, line: Int)? {
        guard bytes.count <= maxBytes else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (k, line) in lines.enumerated() {
            guard let value = declaredValue(in: line, keys: ["minSdkVersion", "minSdk"]) else { continue }
            guard let sdk = Int(value), (1...10_000).contains(sdk) else { return nil }
            return (sdk, k + 1)
        }
        return nil
    }

    /// The text after one of `keys` on `line` (past `=`, `(`, `"` and spaces), up to the next delimiter; nil when
    /// the line declares none (a `//` or `#` comment does not count).
    static func declaredValue(in line: Substring, keys: [String] = ["targetSdkVersion", "targetSdk"]) -> String? {
        let code = line.drop { $0 == " " || $0 == "\t" }
        guard !code.hasPrefix("//"), !code.hasPrefix("#"), !code.hasPrefix("<!--") else { return nil }
        for key in keys {
            guard let r = code.range(of: key) else { continue }
            let rest = code[r.upperBound...]
            // `targetSdkPreview`, `targetSdkVersionCode`: another name that starts the same way.
            if let next = rest.first, next.isLetter || next.isNumber || next == "_" { continue }
            let value = rest.drop { " \t=:(\"'".contains($0) }.prefix { !" \t)\"',;/>".contains($0) }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }
}
