import Foundation
import PinGuardCommands
import PinGuardTestSupport
import XCTest

/// `pin` in-process on files: the hashes OpenSSL computes for every certificate and key type, PEM found anywhere
/// in a file, and broken blocks or files that hold no certificate refused with nothing printed.
final class PinCommandTests: XCTestCase {
    func pin(_ files: [String], json: Bool = false) -> CommandOutcome {
        var options = PinCommand.Options(source: .files(files))
        options.json = json
        return PinCommand.run(options)
    }

    func testAPEMChainListsEveryCertificatesPinsAsPolicyLines() throws {
        let pki = try TestPKI.shared()
        let r = pin([pki.chain("valid")])
        XCTAssertEqual(r.status, 0, r.description)
        let leaf = pki.certificate("valid")
        XCTAssertEqual(r.stdout.split(separator: "\n").first.map(String.init), "# \(pki.chain("valid"))")
        XCTAssertTrue(r.stdout.contains("- {type: spki, hash: \"\(try OpenSSLTool.spkiSHA256(certificate: leaf))\", scope: leaf}\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("- {type: certificate, hash: \"\(try OpenSSLTool.certSHA256(certificate: leaf))\", scope: leaf}\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("- {type: ca, hash: \"\(try OpenSSLTool.spkiSHA256(certificate: pki.intermediate))\", scope: intermediate}\n"),
                      r.stdout)
        XCTAssertTrue(r.stdout.contains("\"\(try OpenSSLTool.certSHA256(certificate: pki.intermediate))\""), r.stdout)
        XCTAssertEqual(r.stderr, [])
    }

    func testDERAndPEMFilesForEveryKeyTypeGiveOpenSSLsHashes() throws {
        let pki = try TestPKI.shared()
        let names = ["rsa", "rsapss", "valid", "p384", "ed25519"]
        let files = try names.flatMap { [pki.certificate($0), try pki.der(of: pki.certificate($0))] }
        let r = pin(files, json: true)
        XCTAssertEqual(r.status, 0, r.description)
        let list = try XCTUnwrap(try r.json() as? [[String: Any]])
        XCTAssertEqual(list.count, files.count)
        for (i, f) in files.enumerated() {
            let pem = pki.certificate(names[i / 2])
            XCTAssertEqual(list[i]["source"] as? String, f)
            XCTAssertEqual(list[i]["spki_sha256"] as? String, try OpenSSLTool.spkiSHA256(certificate: pem), f)
            XCTAssertEqual(list[i]["cert_sha256"] as? String, try OpenSSLTool.certSHA256(certificate: pem), f)
        }
    }

    func testAKeyFileIsRefusedNamingIt() throws {
        let pki = try TestPKI.shared()
        let r = pin([pki.key("valid")])
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderrText.contains(pki.key("valid")), r.stderrText)
    }

    /// `openssl x509 -text` output puts the PEM block after the text dump; with a little more in front
    /// the block starts beyond 4 KiB, and it is still found.
    func testAPEMBlockBeyondTheFirst4KiBIsFound() throws {
        let pki = try TestPKI.shared()
        let dump = try CommandRunner.run(OpenSSLTool.path, ["x509", "-in", pki.certificate("rsa"), "-text"])
        XCTAssertEqual(dump.status, 0, "\(dump)")
        let notes = (1...40).map { "# note \($0): exported from the load balancer, keep for the audit trail ...........\n" }.joined()
        let text = notes + dump.stdout
        let offset = try XCTUnwrap(text.range(of: "-----BEGIN CERTIFICATE-----")).lowerBound.utf16Offset(in: text)
        XCTAssertGreaterThan(offset, 4096 + 512, "the block must start well beyond 4 KiB")
        let file = try PolicyYAML.write(text, to: try TemporaryDirectory.make("pinguard-pin"), as: "rsa-with-text.pem")

        let r = pin([file], json: true)
        XCTAssertEqual(r.status, 0, r.description)
        let list = try XCTUnwrap(try r.json() as? [[String: Any]], r.stdout)
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.first?["spki_sha256"] as? String, try OpenSSLTool.spkiSHA256(certificate: pki.certificate("rsa")))
        XCTAssertEqual(list.first?["cert_sha256"] as? String, try OpenSSLTool.certSHA256(certificate: pki.certificate("rsa")))
    }

    /// A bundle with a damaged block is refused (status 2) naming the block, instead of silently printing the
    /// pins of the other certificates.
    func testABrokenBlockIsRefusedNamingItWithNoPartialOutput() throws {
        let pki = try TestPKI.shared()
        let dir = try TemporaryDirectory.make("pinguard-pin-broken")
        let original = try String(contentsOfFile: pki.chain("valid"), encoding: .utf8)
        let end = "-----END CERTIFICATE-----\n"
        let blocks = original.components(separatedBy: end).filter { !$0.isEmpty }
        XCTAssertEqual(blocks.count, 2, original)
        func damaged(_ block: String, _ change: (inout [String]) -> Void) -> String {
            var lines = block.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines[0].hasPrefix("-----BEGIN CERTIFICATE-----"))
            change(&lines)
            return lines.joined(separator: "\n") + "\n"
        }
        let variants: [(String, String)] = [
            // Characters that are not base64 in the middle of the body.
            ("bad-base64.pem", blocks[0] + end + damaged(blocks[1]) { $0[3] = "@@@@" + $0[3].dropFirst(4) } + end),
            // A body line missing: valid base64, a truncated certificate.
            ("truncated.pem", blocks[0] + end + damaged(blocks[1]) { $0.remove(at: 4) } + end),
        ]
        for (name, text) in variants {
            let file = try PolicyYAML.write(text, to: dir, as: name)
            let r = pin([file])
            XCTAssertEqual(r.status, 2, "\(name): \(r)")
            XCTAssertTrue(r.stderrText.contains("\(file): certificate block 2 is broken"), "\(name): \(r.stderrText)")
            XCTAssertEqual(r.stdout, "", "\(name): no partial output")
        }
        let first = try PolicyYAML.write(damaged(blocks[0]) { $0[2] = "!!" + $0[2].dropFirst(2) } + end + blocks[1] + end,
                                         to: dir, as: "first.pem")
        let r = pin([first])
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertTrue(r.stderrText.contains("\(first): certificate block 1 is broken"), r.stderrText)
        XCTAssertEqual((try pin([pki.chain("valid")], json: true).json() as? [Any])?.count, 2, "the undamaged bundle gives both")
    }

    func testAFileThatIsNotThereIsNamedAndNothingIsPrinted() throws {
        let gone = try TemporaryDirectory.make("pinguard-pin-gone").appendingPathComponent("gone.pem").path
        let r = pin([gone])
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr.count, 1, r.stderrText)
        XCTAssertTrue(r.stderr[0].hasPrefix("pinguard: \(gone): cannot read the file"), r.stderrText)
    }
}
