import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardReadersTestSupport
import PinGuardTestSupport

/// The hostile-input reproducers in `Tests/Fixtures/repro/`: each used to trap, take
/// seconds and gigabytes, or fail with a misleading message. Each now ends quickly with a one-line answer.
/// The time bounds are the generous ones the reproducers' README requires, not benchmarks.
final class ImportHostileInputTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    /// Bytes of a reproducer.
    func repro(_ name: String) throws -> [UInt8] {
        let url = S.repoRoot.appendingPathComponent("Tests/Fixtures/repro/\(name)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            struct Missing: Error, CustomStringConvertible { let description: String }
            throw Missing(description: "reproducer \(url.path) is not present")
        }
        return [UInt8](data)
    }

    /// Runs `body`, failing the test when it takes 2 s of CPU or more (this thread's: what the import itself
    /// spends, whatever else the machine runs).
    func withinTwoSeconds<T>(_ what: String, line: UInt = #line, _ body: () throws -> T) rethrows -> T {
        let (value, seconds) = try CPUClock.measure(body)
        XCTAssertLessThan(seconds, 2, "\(what) took \(seconds) s of CPU", line: line)
        return value
    }

    /// The import's error for `bytes`.
    func importError(_ format: PolicyImportFormat, _ bytes: [UInt8], file: String, line: UInt = #line) -> ImportError? {
        do {
            let r = try PolicyImporter.importPolicy(format: format, contents: bytes, file: file, name: "app", environment: "prod")
            XCTFail("expected an ImportError, got \(r.yaml)", line: line)
        } catch {
            return error
        }
        return nil
    }

    // MARK: HPKP max-age

    func testMaxAgeNearIntMaxIsFormattedWithoutTrapping() throws {
        let bytes = try repro("hpkp-maxage-intmax.txt")
        let r = try withinTwoSeconds("hpkp import") {
            try PolicyImporter.importPolicy(format: .hpkp, contents: bytes, file: "h.txt", name: "app", environment: "prod")
        }
        XCTAssertEqual(S.rule(r, "a.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
        let note = try XCTUnwrap(S.findings(r, containing: "max-age=").first)
        XCTAssertEqual(note.message.components(separatedBy: " is how long").first,
                       "max-age=9223372036854775807 (106751991167300d15h30m7s)")
    }

    func testMaxAgeBeyondIntMaxSaturatesAndNonDigitsAreRefused() throws {
        let pins = "pin-sha256=\"\(h[0])\"; pin-sha256=\"\(h[1])\""
        let huge = try S.run(.hpkp, "Host: a.example.com\nPublic-Key-Pins: \(pins); max-age=99999999999999999999999\n")
        XCTAssertEqual(S.findings(huge, containing: "(106751991167300d15h30m7s)").count, 1)
        for bad in ["-1", "+5", "1e9", "0x10", ""] {
            let r = try? S.run(.hpkp, "Host: a.example.com\nPublic-Key-Pins: \(pins); max-age=\(bad)\n")
            XCTAssertNil(r, bad)
        }
        XCTAssertEqual(ImportSupport.formatSeconds(0), "0s")
        XCTAssertEqual(ImportSupport.formatSeconds(5_184_000), "60d")
        XCTAssertEqual(ImportSupport.formatSeconds(90_061), "1d1h1m1s")
    }

    // MARK: binary plists

    func testSharedBinaryPlistObjectsAreCountedAtEveryReference() throws {
        for (name, format) in [("bplist_fan6.plist", PolicyImportFormat.trustkit),
                               ("bplist_fan5_nspinneddomains.plist", .nspinneddomains)] {
            let bytes = try repro(name)
            let e = try XCTUnwrap(withinTwoSeconds(name) { importError(format, bytes, file: name) })
            XCTAssertEqual(e.description,
                           "\(name): binary property list: expands to more than 100000 values (shared objects are counted at every reference); refused")
        }
    }

    func testBinaryPlistWithinBudgetStillImports() throws {
        let config: [String: Any] = ["TSKConfiguration": [
            "TSKSwizzleNetworkDelegates": true,
            "TSKPinnedDomains": ["api.example.com": ["TSKPublicKeyHashes": [h[0], h[1]], "TSKIncludeSubdomains": true]],
        ]]
        let data = try PropertyListSerialization.data(fromPropertyList: config, format: .binary, options: 0)
        let measure = try BinaryPlistBudget.check([UInt8](data), file: "b.plist")
        XCTAssertEqual(measure.depth, 6, "dictionary, dictionary, dictionary, dictionary, array, string")
        XCTAssertEqual(measure.nodes, 15, "keys count as values")
        let r = try PolicyImporter.importPolicy(format: .trustkit, contents: [UInt8](data), file: "b.plist", name: "app",
                                                environment: "prod")
        XCTAssertEqual(S.rule(r, "**.api.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
    }

    /// `bplist00`, then `objects`, the offset table and the trailer (two-byte offsets, one-byte references).
    func binaryPlist(_ objects: [[UInt8]]) -> [UInt8] {
        func be(_ n: Int, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects {
            offsets += be(bytes.count, 2)
            bytes += o
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + be(objects.count, 8) + be(0, 8) + be(table, 8)
        return bytes
    }

    func testBinaryPlistReferenceCyclesAndBadReferencesAreRefused() throws {
        // A dictionary whose value is the dictionary itself.
        let cycle = binaryPlist([[0xD1, 0x01, 0x00], [0x51, 0x6B]])
        XCTAssertEqual(importError(.trustkit, cycle, file: "c.plist")?.message,
                       "binary property list: object 0 contains itself (a reference cycle); refused")
        let dangling = binaryPlist([[0xA1, 0x07]])
        XCTAssertEqual(importError(.trustkit, dangling, file: "d.plist")?.message, "binary property list: object 0 is malformed")
        var truncated = binaryPlist([[0xA1, 0x00]])
        truncated.removeLast(10)
        XCTAssertEqual(importError(.nspinneddomains, truncated, file: "t.plist")?.message,
                       "binary property list: too short for a header and trailer")
    }

    func testDeepBinaryPlistIsRefusedBeforeFoundationReadsIt() throws {
        // 200 arrays, each holding the next.
        let objects = (0..<200).map { k -> [UInt8] in k == 199 ? [0xA0] : [0xA1, UInt8(k + 1)] }
        XCTAssertEqual(importError(.trustkit, binaryPlist(objects), file: "deep.plist")?.message,
                       "nested deeper than 128 levels; refused")
    }

    // MARK: OkHttp call counts

    func testManyOkHttpAddCallsImportInLinearTime() throws {
        for name in ["okhttp-sequential-add-5000.kt", "okhttp-nested-add-8000.kt"] {
            let bytes = try repro(name)
            var draft = ImportDraft(file: name, format: .okhttp)
            // The scan is what was quadratic; the YAML round trip of `finish` is measured by scripts/bench-import.sh.
            try withinTwoSeconds(name) { try OkHttpImporter.run(bytes, into: &draft) }
            if name.contains("sequential") {
                XCTAssertEqual(draft.rules.count, 5000)
            } else {
                XCTAssertTrue(draft.rules.isEmpty)
            }
        }
        func source(_ calls: Int) -> [UInt8] {
            var text = "val p = CertificatePinner.Builder()\n"
            for k in 0..<calls { text += "    .add(\"h\(k).example.com\", \"sha256/\(h[k % 8])\", BACKUP)\n" }
            return Array((text + "    .build()\nprivate const val BACKUP = \"sha256/\(h[7])\"\n").utf8)
        }
        var draft = ImportDraft(file: "Pins.kt", format: .okhttp)
        let most = source(ImportLimits.maxImportedRules)
        try withinTwoSeconds("10,000 add() calls") { try OkHttpImporter.run(most, into: &draft) }
        XCTAssertEqual(draft.rules.count, 10_000)
        XCTAssertEqual(draft.rules.last?.line, 10_001)
        XCTAssertEqual(draft.rules.last?.policy.pins.map(\.hash), [h[9_999 % 8], h[7]].uniqued())
        // Past the rules an import produces, the scan still ends quickly, with the line of the first rule too many.
        var over = ImportDraft(file: "Pins.kt", format: .okhttp)
        let more = source(20_000)
        let e = try XCTUnwrap(withinTwoSeconds("20,000 add() calls") { () -> ImportError? in
            do throws(ImportError) { try OkHttpImporter.run(more, into: &over) } catch { return error }
            return nil
        })
        XCTAssertEqual(e.description, "Pins.kt:10002: more than 10000 rules: an import produces at most 10000 rules and 25000 pins; refused (split the configuration)")
    }

    // MARK: DTDs

    func testInternalEntityDeclarationsAreRefusedWithTheirLine() throws {
        for (name, line) in [("xml-internal-entity-dropped.plist", 2), ("xml-entity-laughs-error89.plist", 3)] {
            let bytes = try repro(name)
            let e = try XCTUnwrap(withinTwoSeconds(name) { importError(.trustkit, bytes, file: name) })
            XCTAssertEqual(e.line, line, name)
            XCTAssertEqual(e.message, "DTD entity declarations are not accepted (line \(line)); write the values out")
        }
    }

    func testThePlainPlistDoctypeIsAcceptedAndOtherSubsetsAreRefused() throws {
        let body = """
        <plist version="1.0"><dict><key>TSKConfiguration</key><dict><key>TSKSwizzleNetworkDelegates</key><true/>
        <key>TSKPinnedDomains</key><dict><key>a.example.com</key><dict><key>TSKPublicKeyHashes</key>
        <array><string>\(h[0])</string><string>\(h[1])</string></array></dict></dict></dict></dict></plist>
        """
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let plain = xml + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n" + body
        XCTAssertEqual(try S.run(.trustkit, plain).policySet.environments["prod"]?.rules.count, 1)
        // A DOCTYPE in a comment is not one; a "[" inside the quoted identifiers is not a subset.
        let commented = xml + "<!-- <!DOCTYPE plist [ <!ENTITY x \"y\"> ]> -->\n<!DOCTYPE plist SYSTEM \"odd[name].dtd\">\n" + body
        XCTAssertEqual(try S.run(.trustkit, commented).policySet.environments["prod"]?.rules.count, 1)
        let subset = xml + "<!DOCTYPE plist [\n<!ELEMENT plist ANY>\n]>\n" + body
        XCTAssertEqual(S.failure(.trustkit, subset)?.message,
                       "DTD internal subsets are not accepted (line 2); a plain <!DOCTYPE plist PUBLIC …> line is")
        let nsc = "<?xml version=\"1.0\"?>\n<!DOCTYPE n [\n\n<!ENTITY pin \"\(h[0])\">]>\n<network-security-config/>"
        XCTAssertEqual(S.failure(.androidNSC, nsc)?.line, 4)
    }

    func testUndeclaredEntityReferencesAreDescribedInWords() throws {
        let e = try XCTUnwrap(S.failure(.trustkit, "<plist><dict><key>&x;</key><string/></dict></plist>"))
        XCTAssertTrue(e.message.hasPrefix("not well-formed XML: a reference to an undeclared entity"), e.message)
    }

    // MARK: size and count caps

    func testOversizedInputAndTooManyElementsAreRefused() throws {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: ImportSupport.maxInputBytes + 1)
        XCTAssertEqual(importError(.okhttp, big, file: "big.kt")?.message,
                       "the file is 4194305 bytes; the importers read at most 4194304 bytes")
        let many = "<network-security-config>\n" + String(repeating: "<x/>", count: 100_001) + "</network-security-config>"
        let e = try XCTUnwrap(withinTwoSeconds("100,001 elements") { S.failure(.androidNSC, many) })
        XCTAssertEqual(e.message, "more than 100000 values; refused")
        let parens = "CertificatePinner\n" + String(repeating: "(", count: ImportLimits.maxTokens + 10)
        let tokens = try XCTUnwrap(withinTwoSeconds("a million brackets") { importError(.okhttp, Array(parens.utf8), file: "p.kt") })
        XCTAssertEqual(tokens.description, "p.kt:2: more than 1000000 tokens; refused")
        let json = "[" + String(repeating: "1,", count: 100_000) + "1]"
        XCTAssertEqual(S.failure(.trustkit, json)?.message, "more than 100000 values; refused")
    }
}

private extension Array where Element: Equatable {
    /// The elements without repeats, first occurrence kept.
    func uniqued() -> [Element] {
        reduce(into: []) { out, e in if !out.contains(e) { out.append(e) } }
    }
}
