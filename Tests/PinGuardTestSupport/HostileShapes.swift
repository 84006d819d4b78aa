import Foundation

/// The hostile-input reproducers of `Tests/Fixtures/repro/` as shapes of any size: each reproducer is its shape at
/// the size in its name (the tests check so), and a smaller or larger one tells how the work on it grows.
public enum HostileShapes {
    /// The two pins the reproducers use.
    public static let pins = ["V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=", "kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="]

    /// `calls` sequential `add()` calls of two pins each, as `gen_okhttp_seq.py` writes them
    /// (`okhttp-sequential-add-5000.kt`).
    public static func okhttpSequentialAdd(_ calls: Int) -> String {
        "val p = CertificatePinner.Builder()"
            + (0..<calls).map { ".add(\"h\($0).example.com\", \"sha256/\(pins[0])\", \"sha256/\(pins[1])\")\n" }.joined() + ".build()\n"
    }

    /// `calls` `add()` calls, each the first argument of the one before (`okhttp-nested-add-8000.kt`).
    public static func okhttpNestedAdd(_ calls: Int) -> String {
        "val p = CertificatePinner.Builder()" + String(repeating: ".add(\"a.example.com\", ", count: calls) + "\"x\""
            + String(repeating: ")", count: calls) + ".build()\n"
    }

    /// `count` Kotlin constants, each the one before twice, a pin built from the last (`okhttp-const-doubling-26.kt`).
    public static func okhttpDoubling(_ count: Int) -> String {
        "const val C0 = \"aaaaaaaa\"\n" + (1...count).map { "const val C\($0) = C\($0 - 1) + C\($0 - 1)\n" }.joined()
            + "val p = CertificatePinner.Builder().add(\"a.example.com\", \"sha256/\" + C\(count)).build()\n"
    }

    /// `count` Swift constants, each the one before twice, a TrustKit pin of the last
    /// (`trustkit-swift-const-doubling-28.swift`).
    public static func swiftDoubling(_ count: Int) -> String {
        "import TrustKit\nlet c0 = \"aaaaaaaa\"\n" + (1...count).map { "let c\($0) = c\($0 - 1) + c\($0 - 1)\n" }.joined()
            + "let config: [String: Any] = [\n    kTSKSwizzleNetworkDelegates: false,\n    kTSKPinnedDomains: [\n"
            + "        \"api.example.com\": [kTSKPublicKeyHashes: [c\(count), \"\(pins[1])\"]],\n    ],\n]\n"
            + "TrustKit.initSharedInstance(withConfiguration: config)\n"
    }

    /// A Swift TrustKit configuration of `depth` nested arrays (`trustkit-swift-nested-12000-segv.swift`).
    public static func swiftNested(_ depth: Int) -> String {
        "let config: [String: Any] = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + "\nTrustKit.initSharedInstance(withConfiguration: config)\n"
    }

    /// An Objective-C TrustKit configuration of `depth` nested dictionaries (`trustkit-objc-nested-20000-segv.m`).
    public static func objcNested(_ depth: Int) -> String {
        "NSDictionary *c = " + String(repeating: "@{@\"a\": ", count: depth) + "@1" + String(repeating: "}", count: depth)
            + ";\n[TrustKit initSharedInstanceWithConfiguration:c];\n"
    }

    /// A TrustKit property list whose pin is the last of `levels` entities, each ten references to the one before
    /// (`xml-entity-laughs-error89.plist`: 10 levels).
    public static func entityLaughs(levels: Int) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist [\n<!ENTITY l0 \"\(pins[0])\">\n"
        for k in 1..<levels { text += "<!ENTITY l\(k) \"" + String(repeating: "&l\(k - 1);", count: 10) + "\">\n" }
        return text + "]>\n<plist version=\"1.0\"><dict><key>TSKConfiguration</key><dict><key>TSKPinnedDomains</key><dict>\n"
            + "<key>example.com</key><dict><key>TSKPublicKeyHashes</key><array><string>&l\(levels - 1);</string><string>\(pins[1])</string></array></dict>\n"
            + "</dict></dict></dict></plist>\n"
    }

    /// `amp150.yml` (`gen_amp.py 150 150 150`) with environments `e150`… aliasing the first up to `environments` of
    /// them, as `gen_amp.py environments 150 150` writes it.
    public static func moreAliases(_ amp: String, upTo environments: Int) -> String {
        amp + (150..<environments).map { "  e\($0): *E\n" }.joined()
    }
}
