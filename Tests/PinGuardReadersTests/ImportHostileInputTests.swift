import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardReadersTestSupport
import PinGuardTestSupport

/// The hostile-input reproducers in `Tests/Fixtures/repro/`: each used to trap, take
/// seconds and gigabytes, or fail with a misleading message. Each now ends with a one-line answer, and its work
/// grows with the input as the code means it to: the bounds are on how the CPU time grows from one size of the
/// input to a larger one (`WorkGrowth`), which holds on any machine, not on seconds.
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

    /// The import's error for `bytes`; a test failure when there is none and one is `expected`.
    func importError(_ format: PolicyImportFormat, _ bytes: [UInt8], file: String, expected: Bool = true, line: UInt = #line) -> ImportError? {
        do {
            let r = try PolicyImporter.importPolicy(format: format, contents: bytes, file: file, name: "app", environment: "prod")
            if expected { XCTFail("expected an ImportError, got \(r.yaml)", line: line) }
        } catch {
            return error
        }
        return nil
    }

    // MARK: HPKP max-age

    func testMaxAgeNearIntMaxIsFormattedWithoutTrappingOrWorkThatGrowsWithIt() throws {
        let bytes = try repro("hpkp-maxage-intmax.txt")
        let r = try PolicyImporter.importPolicy(format: .hpkp, contents: bytes, file: "h.txt", name: "app", environment: "prod")
        // A day's max-age and Int.max cost the same: nothing counts up to the value.
        let day = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "9223372036854775807", with: "86400").utf8)
        HostileSource.assertGrowth("max-age=Int.max against max-age=86400", below: 2,
                                   small: { _ = importError(.hpkp, day, file: "h.txt", expected: false) },
                                   large: { _ = importError(.hpkp, bytes, file: "h.txt", expected: false) })
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
            let e = try XCTUnwrap(importError(format, bytes, file: name))
            XCTAssertEqual(e.description,
                           "\(name): binary property list: expands to more than 100000 values (shared objects are counted at every reference); refused")
            // The work grows with the objects of the file, not with the values they expand to: four times the
            // levels is four times the objects, and 6^24 times the values.
            let (shallow, deep) = (fanPlist(depth: 8), fanPlist(depth: 32))
            XCTAssertEqual(importError(format, deep, file: name)?.description, e.description)
            HostileSource.assertGrowth("\(name): a fan 32 levels deep against 8", below: 8,
                                       small: { _ = importError(format, shallow, file: name) },
                                       large: { _ = importError(format, deep, file: name) })
        }
    }

    /// A binary plist of `depth` arrays, each holding the next six times: 6^depth values once expanded.
    func fanPlist(depth: Int) -> [UInt8] {
        binaryPlist((0...depth).map { k in k == depth ? [0x51, 0x6B] : [0xA6] + [UInt8](repeating: UInt8(k + 1), count: 6) })
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

    /// Scans `bytes` with the OkHttp reader; its error, if any.
    func scan(_ bytes: [UInt8], into draft: inout ImportDraft) -> ImportError? {
        do throws(ImportError) { try OkHttpImporter.run(bytes, into: &draft) } catch { return error }
        return nil
    }

    /// Scans `bytes` into a fresh draft, for measuring.
    func scan(_ bytes: [UInt8]) {
        var draft = ImportDraft(file: "Pins.kt", format: .okhttp)
        _ = scan(bytes, into: &draft)
    }

    func testManyOkHttpAddCallsImportInLinearWork() throws {
        // The scan is what was quadratic; the YAML round trip of `finish` is measured by scripts/bench-import.sh.
        for (name, shape, calls) in [("okhttp-sequential-add-5000.kt", HostileShapes.okhttpSequentialAdd, 5_000),
                                     ("okhttp-nested-add-8000.kt", HostileShapes.okhttpNestedAdd, 8_000)] {
            let bytes = try repro(name)
            XCTAssertEqual(bytes, Array(shape(calls).utf8), "the reproducer is the shape measured below")
            var draft = ImportDraft(file: name, format: .okhttp)
            XCTAssertNil(scan(bytes, into: &draft), name)
            XCTAssertEqual(draft.rules.count, name.contains("sequential") ? 5_000 : 0, name)
            // A quarter of the calls: a quarter of the work, where the quadratic scan took a sixteenth.
            let quarter = Array(shape(calls / 4).utf8)
            HostileSource.assertGrowth("\(name) against a quarter of its calls", below: 8, small: { scan(quarter) }, large: { scan(bytes) })
        }
        func source(_ calls: Int) -> [UInt8] {
            var text = "val p = CertificatePinner.Builder()\n"
            for k in 0..<calls { text += "    .add(\"h\(k).example.com\", \"sha256/\(h[k % 8])\", BACKUP)\n" }
            return Array((text + "    .build()\nprivate const val BACKUP = \"sha256/\(h[7])\"\n").utf8)
        }
        var draft = ImportDraft(file: "Pins.kt", format: .okhttp)
        let most = source(ImportLimits.maxImportedRules)
        XCTAssertNil(scan(most, into: &draft))
        let quarter = source(ImportLimits.maxImportedRules / 4)
        HostileSource.assertGrowth("10,000 add() calls against 2,500", below: 8, small: { scan(quarter) }, large: { scan(most) })
        XCTAssertEqual(draft.rules.count, 10_000)
        XCTAssertEqual(draft.rules.last?.line, 10_001)
        XCTAssertEqual(draft.rules.last?.policy.pins.map(\.hash), [h[9_999 % 8], h[7]].uniqued())
        // Past the rules an import produces, the scan ends at the line of the first rule too many: twice the calls
        // past it add at most a linear read of the rest.
        var over = ImportDraft(file: "Pins.kt", format: .okhttp)
        let e = try XCTUnwrap(scan(source(20_000), into: &over))
        XCTAssertEqual(e.description, "Pins.kt:10002: more than 10000 rules: an import produces at most 10000 rules and 25000 pins; refused (split the configuration)")
        let (past, twice) = (source(12_500), source(25_000))
        HostileSource.assertGrowth("25,000 add() calls against 12,500", below: 3, small: { scan(past) }, large: { scan(twice) })
    }

    // MARK: DTDs

    func testInternalEntityDeclarationsAreRefusedWithTheirLineBeforeExpanding() throws {
        for (name, line) in [("xml-internal-entity-dropped.plist", 2), ("xml-entity-laughs-error89.plist", 3)] {
            let bytes = try repro(name)
            let e = try XCTUnwrap(importError(.trustkit, bytes, file: name))
            XCTAssertEqual(e.line, line, name)
            XCTAssertEqual(e.message, "DTD entity declarations are not accepted (line \(line)); write the values out")
        }
        // The laughs of the reproducer, 10 levels of tenfold entities, against 40 levels: four times the text, and
        // 10^30 times the expansion, which is never made.
        let (ten, forty) = (Array(HostileShapes.entityLaughs(levels: 10).utf8), Array(HostileShapes.entityLaughs(levels: 40).utf8))
        XCTAssertEqual(ten, try repro("xml-entity-laughs-error89.plist"), "the reproducer is the shape measured")
        XCTAssertEqual(importError(.trustkit, forty, file: "l.plist")?.line, 3)
        HostileSource.assertGrowth("40 levels of entities against 10", below: 8,
                                   small: { _ = importError(.trustkit, ten, file: "l.plist") },
                                   large: { _ = importError(.trustkit, forty, file: "l.plist") })
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
        func elements(_ count: Int) -> String { "<network-security-config>\n" + String(repeating: "<x/>", count: count) + "</network-security-config>" }
        let e = try XCTUnwrap(S.failure(.androidNSC, elements(100_001)))
        XCTAssertEqual(e.message, "more than 100000 values; refused")
        HostileSource.assertGrowth(.androidNSC, file: "n.xml", small: elements(25_000), large: elements(100_001), below: 8,
                                   "100,001 elements against 25,000")
        func brackets(_ count: Int) -> String { "CertificatePinner\n" + String(repeating: "(", count: count) }
        let tokens = try XCTUnwrap(importError(.okhttp, Array(brackets(ImportLimits.maxTokens + 10).utf8), file: "p.kt"))
        XCTAssertEqual(tokens.description, "p.kt:2: more than 1000000 tokens; refused")
        HostileSource.assertGrowth(.okhttp, file: "p.kt", small: brackets(250_000), large: brackets(ImportLimits.maxTokens + 10), below: 8,
                                   "a million brackets against a quarter million")
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
