import Foundation
import PinGuardTestSupport
import XCTest

/// Every file a command is given must be a regular file: a FIFO (which would block `open(2)` until a
/// writer came) or a device is refused at once with exit status 2 and one line naming it. No writer ever comes, so a
/// command that ends at all did not block; and the refusal costs about what refusing a missing file does.
final class CLISpecialFileTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func fifo(_ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        guard mkfifo(path, 0o600) == 0 else { throw HarnessError("mkfifo \(path) failed") }
        return path
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs pinguard and checks it ends on its own, refusing `named` with one line. A blocked open would never end
    /// (the 120 s timeout only stops it); work shows in the CPU time, compared with the same command doing the same
    /// work up to a refusal that opens nothing: `named` replaced by a missing path, in the arguments or in the
    /// configuration (`arguments[1]`) that names it.
    private func refuses(_ arguments: [String], named: String, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        let r = try MeasuredCommand.run(binary, arguments)
        XCTAssertFalse(r.timedOut, "\(arguments) blocked", file: file, line: line)
        let missing = dir.appendingPathComponent("missing").path
        let baseline: [String]
        if arguments.contains(named) {
            baseline = arguments.map { $0 == named ? missing : $0 }
        } else {
            let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
            let fileName = URL(fileURLWithPath: named).lastPathComponent
            XCTAssertTrue(text.contains(fileName), "\(arguments[1]) names \(fileName)", file: file, line: line)
            let twin = try write("missing-" + URL(fileURLWithPath: arguments[1]).lastPathComponent,
                                 text.replacingOccurrences(of: fileName, with: "missing-" + fileName))
            baseline = [arguments[0], twin] + arguments.dropFirst(2)
        }
        let base = try MeasuredCommand.meanCPUSeconds(binary, baseline)
        // The cheapest of up to three runs: one run on a busy machine can take a burst of someone else's work.
        var cpu = r.cpuSeconds
        for _ in 0..<2 where cpu >= 3 * base { cpu = min(cpu, try MeasuredCommand.run(binary, arguments).cpuSeconds) }
        XCTAssertLessThan(cpu, 3 * base, "\(arguments): \(cpu) s of CPU against \(base) s for \(baseline)", file: file, line: line)
        XCTAssertEqual(r.status, 2, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(named) && r.stderr.contains("not a regular file (a FIFO)"), r.stderr, file: file, line: line)
    }

    func testConfigurationAndEveryFileItNamesMustBeRegular() throws {
        let config = try fifo("fifo.yml")
        try refuses(["check-config", config], named: config)
        let targets = try fifo("t.yml")
        try refuses(["check-config", try write("c1.yml", "policies: []\ntargets: []\ntarget_files: [\"t.yml\"]\n")], named: targets)
        let policy = try fifo("p.yml")
        try refuses(["check-config", try write("c2.yml", "policies: [\"p.yml\"]\ntargets: []\n")], named: policy)
        let ca = try fifo("ca.pem")
        try refuses(["check-config", try write("c3.yml", "policies: []\ntargets: []\ntrust: {ca_file: ca.pem}\n")], named: ca)
        let cert = try fifo("client.pem")
        try refuses(["check-config", try write("c4.yml", "policies: []\ntargets:\n  - {host: a.example, client_cert: client.pem}\n")],
                    named: cert)
    }

    func testLintImportPlanPinAndProbeRefuseAFIFO() throws {
        let source = try fifo("Pins.kt")
        try refuses(["lint", source], named: source)
        try refuses(["import", "--format", "okhttp", source], named: source)
        let kotlin = try write("Real.kt", "val p = CertificatePinner.Builder().add(\"a.example\", \"sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\").build()\n")
        let defines = try fifo("defines.txt")
        try refuses(["import", "--format", "okhttp", kotlin, "--defines", defines], named: defines)
        let chain = try fifo("chain.pem")
        try refuses(["pin", chain], named: chain)
        let policy = try write("p.yml", "name: app\nenvironments:\n  prod:\n    policies: []\n")
        try refuses(["plan", "--chain", chain, "--host", "a.example", "--policy", policy], named: chain)
        try refuses(["probe", "a.example", "--connect", "127.0.0.1", "--ca-file", chain], named: chain)
    }

    func testDefinesAreBoundedAndTheirErrorsEscaped() throws {
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        let kotlin = try write("Real.kt", "val p = CertificatePinner.Builder().build()\n")
        let r = try MeasuredCommand.run(binary, ["import", "--format", "okhttp", kotlin, "--defines", try HostileInputs.path("defines-esc-echo.txt")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertFalse(r.timedOut)
        let valid = try write("valid.txt", "A=b\n")
        let base = try MeasuredCommand.meanCPUSeconds(binary, ["import", "--format", "okhttp", kotlin, "--defines", valid])
        XCTAssertLessThan(r.cpuSeconds, 3 * base, "\(r.cpuSeconds) s of CPU against \(base) s with a valid --defines file")
        XCTAssertFalse(r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, r.stderr.debugDescription)
        XCTAssertTrue(r.stderr.contains("expected NAME=VALUE, got \"\\x1b]0;owned\\x07"), r.stderr)
        let huge = try write("huge.txt", String(repeating: "A=b\n", count: 300_000))
        let big = try MeasuredCommand.run(binary, ["import", "--format", "okhttp", kotlin, "--defines", huge])
        XCTAssertEqual(big.status, 2)
        XCTAssertTrue(big.stderr.contains("a --defines file is larger than the limit of 1048576 bytes"), big.stderr)
        XCTAssertLessThan(big.maxRSSBytes, 200 << 20)
        let many = (0..<8_000).map { "--define=N\($0)=v" }
        let flags = try MeasuredCommand.run(binary, ["import", "--format", "okhttp", kotlin] + many)
        XCTAssertEqual(flags.status, 2, flags.stderr)
        XCTAssertTrue(flags.stderr.contains("--define is given more than 1000 times; put definitions in a --defines file"), flags.stderr)
        // Refused before the quadratic parse: a quarter of the flags, also past the limit, costs more than an eighth
        // (parsed, it would cost a sixteenth).
        let quarter = try MeasuredCommand.meanCPUSeconds(binary, ["import", "--format", "okhttp", kotlin] + many.prefix(2_000))
        XCTAssertLessThan(flags.cpuSeconds, 8 * quarter, "8,000 --define flags: \(flags.cpuSeconds) s of CPU against \(quarter) s for 2,000")
        let file = try write("many.txt", (0..<10_001).map { "N\($0)=v" }.joined(separator: "\n"))
        let fromFile = try MeasuredCommand.run(binary, ["import", "--format", "okhttp", kotlin, "--defines", file])
        XCTAssertTrue(fromFile.stderr.contains("more than 10000 NAME=VALUE definitions"), fromFile.stderr)
    }
}
