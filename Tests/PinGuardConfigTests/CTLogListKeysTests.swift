import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardCTTestSupport
import PinGuardTestSupport
import XCTest

/// The key that checks Chrome's list: Google's published key unless `ct.log_list_keys.chrome` names another;
/// a kept copy of a list is checked again as if just fetched.
final class CTLogListKeysTests: XCTestCase {
    static let chromeURL = "https://127.0.0.1:8443/ct/log_list.json"

    static func config(chrome: String? = chromeURL, key: String? = nil) -> ServiceConfig {
        var c = ServiceConfig()
        c.ctLogLists[.chrome] = chrome
        c.ctLogListKeys[.chrome] = key
        return c
    }

    func testTheBundledKeyIsGooglesRSA4096Key() throws {
        let keys = try CTLogListKeysLoader.load(Self.config(), path: "pinguard.yml", base: "/")
        let chrome = try XCTUnwrap(keys[.chrome])
        XCTAssertEqual(chrome.key.summary, "RSA-4096")
        XCTAssertTrue(chrome.file.hasSuffix("ct_log_list_pubkey_chrome.pem"), chrome.file)
        // SHA-256 of the DER SubjectPublicKeyInfo of https://www.gstatic.com/ct/log_list/v3/log_list_pubkey.pem
        // (`openssl pkey -pubin -outform DER | sha256sum`; see CT_LOG_LISTS.md).
        let der = try CommandRunner.run(OpenSSLTool.path, ["pkey", "-pubin", "-in", chrome.file, "-outform", "DER"])
        XCTAssertEqual(der.status, 0, "\(der)")
        let digest = try CommandRunner.shell("\(OpenSSLTool.path) pkey -pubin -in \(CommandRunner.quote(chrome.file)) -outform DER | sha256sum")
        XCTAssertEqual(digest.stdout.prefix(64), "f1d8b68e50210d8e73d9a3e97f571773c52d7f28c0b1a71beee81d8562e6fd85")
    }

    /// The Debian package and the image install contrib/systemd/pinguard.yml: an installed pinguard keeps its
    /// lists current from their publishers without a release.
    func testTheShippedConfigurationFetchesBothListsFromTheirPublishers() throws {
        let loaded = try ConfigurationLoader.load(path: Repository.root.appendingPathComponent("contrib/systemd/pinguard.yml").path)
        for name in CTLogListName.allCases {
            XCTAssertEqual(CTLogListSource(configured: loaded.config.ctLogLists[name]), .url(name.publishedURL), name.rawValue)
        }
        XCTAssertEqual(loaded.config.ctRefresh, 86_400)
        XCTAssertEqual(loaded.ctLogListKeys[.chrome]?.key.summary, "RSA-4096", "Google's key, bundled")
        XCTAssertNil(loaded.ctLogListKeys[.apple])
        XCTAssertEqual(loaded.config.fetch, FetchSettings(), "public addresses only: the publishers are reached, nothing private")
    }

    func testNoKeyIsReadForAFileOrAnUnsignedList() throws {
        XCTAssertTrue(try CTLogListKeysLoader.load(Self.config(chrome: "chrome.json"), path: "c.yml", base: "/").isEmpty)
        var apple = ServiceConfig()
        apple.ctLogLists[.apple] = CTLogListName.apple.publishedURL
        XCTAssertTrue(try CTLogListKeysLoader.load(apple, path: "c.yml", base: "/").isEmpty, "Apple signs no list")
    }

    func testAConfiguredKeyThatIsMissingOrNotAKeyIsAConfigurationError() throws {
        let dir = try TemporaryDirectory.make("pinguard-log-list-key")
        XCTAssertThrowsError(try CTLogListKeysLoader.load(Self.config(key: "absent.pem"), path: "c.yml", base: dir.path)) { error in
            XCTAssertEqual("\(error)", "c.yml: ct.log_list_keys.chrome: \(dir.path)/absent.pem: no such file")
        }
        try "junk".write(to: dir.appendingPathComponent("junk.pem"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try CTLogListKeysLoader.load(Self.config(key: "junk.pem"), path: "c.yml", base: dir.path)) { error in
            XCTAssertEqual("\(error)", "c.yml: ct.log_list_keys.chrome: \(dir.path)/junk.pem: no PEM public key (-----BEGIN PUBLIC KEY-----) in the file")
        }
    }

    func testAListIsTakenOnlyWithItsSignatureAndWhenItReads() throws {
        let publisher = try TestLogListPublisher()
        let dir = try TemporaryDirectory.make("pinguard-log-list-check")
        try publisher.publicKeyPEM.write(to: dir.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        let keys = try CTLogListKeysLoader.load(Self.config(key: "key.pem"), path: "c.yml", base: dir.path)
        let download = CTLogListDownload(name: .chrome, url: Self.chromeURL, key: keys[.chrome])
        XCTAssertEqual(download.signatureURL, "https://127.0.0.1:8443/ct/log_list.sig")
        let logs = try TestCTLog.make(2)
        let json = Array(TestLogListJSON.make(version: "3.1", timestamp: Date(timeIntervalSince1970: 1_795_000_000),
                                              entries: logs.map { TestLogListEntry(log: $0, operatorName: "Op") }).utf8)
        let list = try download.check(list: json, signature: try publisher.sign(json)).get()
        XCTAssertEqual(list.version, "3.1")
        XCTAssertEqual(list.origin, Self.chromeURL)
        XCTAssertEqual(list.logs.count, 2)
        XCTAssertEqual(download.check(list: json + [10], signature: try publisher.sign(json)).failure,
                       "its signature does not verify with the RSA-2048 key in \(dir.path)/key.pem")
        XCTAssertEqual(download.check(list: json, signature: nil).failure,
                       "its signature does not verify with the RSA-2048 key in \(dir.path)/key.pem")
        let notJSON = Array("<html>".utf8)
        XCTAssertEqual(download.check(list: notJSON, signature: try publisher.sign(notJSON)).failure, "it does not read: not JSON")
        let apple = CTLogListDownload(name: .apple, url: CTLogListName.apple.publishedURL, key: nil)
        XCTAssertNil(apple.signatureURL, "Apple publishes no signature: HTTPS alone vouches for its list")
        XCTAssertEqual(apple.check(list: json, signature: nil).failure, nil, "an unsigned list is taken when it reads")
    }
}

extension Result where Failure == CTLogListDownload.Reason {
    /// The reason, when the list was not taken.
    var failure: String? {
        guard case .failure(let reason) = self else { return nil }
        return reason.text
    }
}
