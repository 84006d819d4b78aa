import Foundation
import PinGuardReaders
import XCTest

/// The iOS release an app runs from, read from the file that declares it: the lowest of a project's deployment
/// targets, a Podfile's platform, a package manifest's platform, a built Info.plist's MinimumOSVersion; a file
/// that declares none as a version is refused naming it.
final class AppleDeploymentTargetTests: XCTestCase {
    func read(_ text: String, file: String = "project.pbxproj") throws -> (major: Int, written: String, line: Int?) {
        try AppleDeploymentTarget.read(Array(text.utf8), file: file)
    }

    func testAProjectsLowestDeploymentTargetIsTheAppsFloor() throws {
        let project = """
        // !$*UTF8*$!
        {
        \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 16.0;
        \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = "$(RECOMMENDED_IPHONEOS_DEPLOYMENT_TARGET)";
        \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 14.4;
        \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 17.2;
        }
        """
        let target = try read(project)
        XCTAssertEqual(target.major, 14)
        XCTAssertEqual(target.written, "14.4")
        XCTAssertEqual(target.line, 5)
    }

    func testPodfilesPackageManifestsAndBuildSettingsFilesAreRead() throws {
        XCTAssertEqual(try read("source 'https://cdn.cocoapods.org/'\nplatform :ios, '15.0'\n", file: "Podfile").major, 15)
        XCTAssertEqual(try read("// platform :ios, '9.0'\nplatform :ios, \"13.1\"\n", file: "Podfile").line, 2)
        XCTAssertEqual(try read("    platforms: [.macOS(.v13), .iOS(.v16)],\n", file: "Package.swift").major, 16)
        let dotted = try read("platforms: [.iOS(.v15_4)]\n", file: "Package.swift")
        XCTAssertEqual(dotted.major, 15)
        XCTAssertEqual(dotted.written, "15.4")
        XCTAssertEqual(try read("platforms: [.iOS(\"12.0\")]\n", file: "Package.swift").major, 12)
        XCTAssertEqual(try read("IPHONEOS_DEPLOYMENT_TARGET=18.0\n", file: "Base.xcconfig").major, 18)
    }

    func testABuiltInfoPlistsMinimumOSVersionIsRead() throws {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key><string>test.pinguard.app</string>
        \t<key>MinimumOSVersion</key>
        \t<string>17.0</string>
        </dict>
        </plist>
        """
        let target = try read(plist, file: "Info.plist")
        XCTAssertEqual(target.major, 17)
        XCTAssertEqual(target.line, 5)
        let binary = try PropertyListSerialization.data(fromPropertyList: ["MinimumOSVersion": "15.2"], format: .binary, options: 0)
        let fromBinary = try AppleDeploymentTarget.read(Array(binary), file: "Info.plist")
        XCTAssertEqual(fromBinary.major, 15)
        XCTAssertNil(fromBinary.line, "a binary plist has no lines")
    }

    func testAFileWithoutALiteralDeploymentTargetIsRefusedNamingIt() throws {
        for (text, file) in [("IPHONEOS_DEPLOYMENT_TARGET = \"$(RECOMMENDED_IPHONEOS_DEPLOYMENT_TARGET)\";\n", "project.pbxproj"),
                             ("platform :ios\n", "Podfile"), ("# IPHONEOS_DEPLOYMENT_TARGET = 15.0\n", "App.xcconfig"),
                             ("IPHONEOS_DEPLOYMENT_TARGET = 1000.0;\n", "project.pbxproj"),
                             ("<plist version=\"1.0\"><dict><key>CFBundleName</key><string>x</string></dict></plist>", "Info.plist")] {
            XCTAssertThrowsError(try read(text, file: file), file) { error in
                let said = "\(error)"
                XCTAssertTrue(said.contains(file) && said.contains("no iOS deployment target"), said)
            }
        }
        let large = [UInt8](repeating: UInt8(ascii: " "), count: AppleDeploymentTarget.maxBytes + 1)
        XCTAssertThrowsError(try AppleDeploymentTarget.read(large, file: "huge.pbxproj")) { error in
            XCTAssertTrue("\(error)".contains("larger than"), "\(error)")
        }
    }
}
