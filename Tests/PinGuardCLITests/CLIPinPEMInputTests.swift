import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// `pin` reads PEM anywhere in a file and reports broken blocks.
final class CLIPinPEMInputTests: XCTestCase {
    // MARK: pin: PEM anywhere, broken blocks reported

    /// `openssl x509 -text` output puts the PEM block after the text dump; with a little more in front
    /// the block starts beyond 4 KiB, and it is still found.
    func testPinFindsAPEMBlockBeyondTheFirst4KiB() throws {
        let pki = try TestPKI.shared()
        let dump = try CommandRunner.run(OpenSSLTool.path, ["x509", "-in", pki.certificate("rsa"), "-text"])
        XCTAssertEqual(dump.status, 0, "\(dump)")
        let notes = (1...40).map { "# note \($0): exported from the load balancer, keep for the audit trail ...........\n" }.joined()
        let text = notes + dump.stdout
        let offset = try XCTUnwrap(text.range(of: "-----BEGIN CERTIFICATE-----")).lowerBound.utf16Offset(in: text)
        XCTAssertGreaterThan(offset, 4096 + 512, "the block must start well beyond 4 KiB")
        let dir = try TemporaryDirectory.make("pinguard-rf-pin")
        let file = try PolicyYAML.write(text, to: dir, as: "rsa-with-text.pem")

        let r = try runPinguard(args: ["pin", "--json", file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.first?["spki_sha256"] as? String, try OpenSSLTool.spkiSHA256(certificate: pki.certificate("rsa")))
        XCTAssertEqual(list.first?["cert_sha256"] as? String, try OpenSSLTool.certSHA256(certificate: pki.certificate("rsa")))
    }

    /// A bundle whose second block's body is damaged is refused (exit 2) naming the block, instead of
    /// silently printing the pins of the first certificate only.
    func testPinReportsABrokenSecondBlock() throws {
        let pki = try TestPKI.shared()
        let dir = try TemporaryDirectory.make("pinguard-rf-pin-broken")
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
            let r = try runPinguard(args: ["pin", file])
            XCTAssertEqual(r.status, 2, "\(name): \(r)")
            XCTAssertTrue(r.stderr.contains("\(file): certificate block 2 is broken"), "\(name): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(name): no partial output")
        }
        // The first block broken: block 1.
        let first = try PolicyYAML.write(damaged(blocks[0]) { $0[2] = "!!" + $0[2].dropFirst(2) } + end + blocks[1] + end,
                                         to: dir, as: "first.pem")
        let r = try runPinguard(args: ["pin", first])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(first): certificate block 1 is broken"), r.stderr)
        // The undamaged bundle still gives both certificates.
        let good = try runPinguard(args: ["pin", "--json", pki.chain("valid")])
        XCTAssertEqual(good.status, 0, "\(good)")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [Any])?.count, 2)
    }
}
