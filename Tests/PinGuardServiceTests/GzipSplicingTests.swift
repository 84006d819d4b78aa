import Foundation
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// Deflate pieces compressed separately (and stored ones written by hand) splice into one gzip member that
/// real decoders read back: gzip(1), Python's zlib, and each piece inflated on its own.
final class GzipSplicingTests: XCTestCase {
    func text(_ seed: Int, bytes: Int) -> [UInt8] {
        var out: [UInt8] = []
        var i = seed
        while out.count < bytes {
            out += Array("pinguard_cert_info{target=\"t\(i)\",depth=\"0\",subject=\"CN=t\(i).example\"} 1\n".utf8)
            i += 7
        }
        return Array(out.prefix(bytes))
    }

    func decoded(_ member: [UInt8], with command: String) throws -> [UInt8] {
        let dir = try TemporaryDirectory.make("pinguard-gzip-splice")
        let input = dir.appendingPathComponent("in.gz")
        let output = dir.appendingPathComponent("out")
        try Data(member).write(to: input)
        let run = try CommandRunner.run("/bin/sh", ["-c", "\(command) < \(CommandRunner.quote(input.path)) > \(CommandRunner.quote(output.path))"])
        XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
        return Array(try Data(contentsOf: output))
    }

    func testSplicedPiecesDecodeToTheirConcatenation() throws {
        let deflater = Deflater(level: 6)
        let binary = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let chunks: [[UInt8]] = [text(1, bytes: 300_000), [], Array("# HELP x\n".utf8), binary, text(5, bytes: 10)]
        let pieces = [deflater.piece(chunks[0]), .stored(chunks[1]), .stored(chunks[2]), .stored(chunks[3]), deflater.piece(chunks[4])]
        for (p, c) in zip(pieces, chunks) {
            XCTAssertEqual(p.inflated(), c, "each piece inflates on its own")
            XCTAssertEqual(p.length, c.count)
        }
        XCTAssertLessThan(pieces[0].deflated.count, chunks[0].count / 10, "text compresses")
        XCTAssertGreaterThan(pieces[3].deflated.count, chunks[3].count, "a stored piece over 64 KiB takes two blocks")

        var member = GzipAssembler(partSize: 4096)
        for p in pieces { member.append(p) }
        let (parts, length) = member.finish()
        let bytes = parts.flatMap { $0 }
        XCTAssertEqual(length, chunks.reduce(0) { $0 + $1.count })
        XCTAssertTrue(parts.dropLast().allSatisfy { $0.count <= 70_100 }, "parts stay near the part size unless one piece is larger")
        let whole = chunks.flatMap { $0 }
        XCTAssertEqual(try decoded(bytes, with: "gzip -dc"), whole, "gzip(1) reads the member and checks its CRC and length")
        XCTAssertEqual(try decoded(bytes, with: "python3 -c 'import gzip,sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))'"), whole)
        let dir = try TemporaryDirectory.make("pinguard-gzip-crc")
        try Data(chunks[0]).write(to: dir.appendingPathComponent("text"))
        let crc = try CommandRunner.run("/bin/sh", ["-c", "python3 -c 'import zlib,sys; print(zlib.crc32(sys.stdin.buffer.read()))' < \(CommandRunner.quote(dir.appendingPathComponent("text").path))"])
        XCTAssertEqual(crc.stdout.trimmingCharacters(in: .whitespacesAndNewlines), String(pieces[0].crc), "Python's CRC-32 of the piece's bytes")

        var corrupt = bytes
        corrupt[corrupt.count - 6] ^= 0xff
        try Data(corrupt).write(to: dir.appendingPathComponent("c.gz"))
        XCTAssertNotEqual(try CommandRunner.run("/bin/sh", ["-c", "gzip -t \(CommandRunner.quote(dir.appendingPathComponent("c.gz").path))"]).status, 0,
                          "the trailer's CRC is checked: a wrong one fails")
    }

    func testAnEmptyMemberIsValid() throws {
        var member = GzipAssembler()
        member.append(.stored([]))
        XCTAssertEqual(try decoded(member.finish().parts.flatMap { $0 }, with: "gzip -dc"), [])
    }

    func testAcceptEncodingWeights() {
        let cases: [([String], Bool)] = [
            ([], false), (["gzip"], true), (["GZIP"], true), (["x-gzip"], true), (["deflate, gzip;q=0.5"], true),
            (["gzip;q=0"], false), (["gzip; q=0.000"], false), (["*"], true), (["*;q=0"], false), (["*, gzip;q=0"], false),
            (["identity"], false), (["br", "gzip"], true), (["gzip;q=bogus"], false), (["deflate", "*;q=0.1"], true),
        ]
        for (values, expected) in cases { XCTAssertEqual(AcceptEncoding.allowsGzip(values), expected, "\(values)") }
    }
}
