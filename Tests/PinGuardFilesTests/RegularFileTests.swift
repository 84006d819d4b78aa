import Foundation
import Glibc
import PinGuardFiles
import PinGuardTestSupport
import XCTest

/// `RegularFile` reads regular files only and at most the bytes it is allowed: a FIFO, a directory or a missing
/// path is refused at once with its code and a line that names it, and nothing larger than the limit is read.
final class RegularFileTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-regular-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func file(_ name: String, bytes: Int) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data((0..<bytes).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The code and the line of the error `body` throws; nil, and a failed test, when it throws none or another.
    private func code(_ body: () throws -> Void, line: UInt = #line) -> (RegularFileError.Code, String)? {
        do { try body() } catch let error as RegularFileError { return (error.code, "\(error)") } catch {
            XCTFail("\(error)", line: line)
            return nil
        }
        XCTFail("accepted", line: line)
        return nil
    }

    func testAFileUpToTheLimitIsReadWholeAndALargerOneIsRefused() throws {
        let path = try file("exact.bin", bytes: 200_000)
        XCTAssertEqual(try RegularFile.read(path, maxBytes: 200_000), (0..<200_000).map { UInt8($0 % 251) })
        let refused = code { _ = try RegularFile.read(path, maxBytes: 199_999) }
        XCTAssertEqual(refused?.0, .tooLarge)
        XCTAssertEqual(refused?.1, "\(path): the file is larger than the limit of 199999 bytes")
    }

    func testTheHeadOfAFileIsItsFirstBytesOrAllOfAShorterOne() throws {
        let path = try file("head.bin", bytes: 100_000)
        XCTAssertEqual(try RegularFile.head(path, count: 70_000), (0..<70_000).map { UInt8($0 % 251) })
        XCTAssertEqual(try RegularFile.head(path, count: 1_000_000).count, 100_000)
        XCTAssertEqual(try RegularFile.read(try file("empty", bytes: 0), maxBytes: 10), [])
    }

    func testAMissingPathIsMissing() {
        let path = dir.appendingPathComponent("absent.yml").path
        XCTAssertEqual(code { _ = try RegularFile.read(path, maxBytes: 10) }?.0, .missing)
        XCTAssertEqual(code { try RegularFile.check(dir.appendingPathComponent("absent/below").path) }?.1,
                       "\(dir.path)/absent/below: no such file")
    }

    /// A FIFO with no writer would block a plain `open(2)` for ever; it is refused at once.
    func testAFIFOAndADirectoryAreRefusedAtOnceAndNamed() throws {
        let fifo = dir.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // No writer ever comes: returning at all is not blocking.
        let refused = try XCTUnwrap(Watchdog.value { self.code { _ = try RegularFile.read(fifo, maxBytes: 10) } }, "the read blocked on the FIFO")
        XCTAssertEqual(refused?.0, .notRegular)
        XCTAssertEqual(refused?.1, "\(fifo): not a regular file (a FIFO)")
        XCTAssertEqual(code { _ = try RegularFile.descriptor(dir.path) }?.1, "\(dir.path): not a regular file (a directory)")
        XCTAssertEqual(code { try RegularFile.check("/dev/null") }?.0, .notRegular)
    }

    func testADescriptorIsOpenForReadingTheFile() throws {
        let path = try file("kept.bin", bytes: 10)
        let fd = try RegularFile.descriptor(path)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }, 10)
        XCTAssertEqual(Array(buffer.prefix(10)), (0..<10).map { UInt8($0) })
    }
}
