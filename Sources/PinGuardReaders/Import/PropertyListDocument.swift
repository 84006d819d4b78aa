import Foundation
import PinGuardCore
import Yams

/// Reads an Info.plist (XML or binary) or a JSON document into `PlistNode`s.
///
/// Documents nested deeper than `ImportSupport.maxNestingDepth` are refused before any recursive walk.
enum PropertyListDocument {
    /// How the document was written.
    enum Syntax: String {
        case xml = "XML property list"
        case binary = "binary property list"
        case json = "JSON"
    }

    /// Detects the syntax and parses; errors name the file and, where known, the line.
    static func parse(_ bytes: [UInt8], file: String) throws(ImportError) -> (root: PlistNode, syntax: Syntax) {
        if bytes.starts(with: Array("bplist".utf8)) {
            return (try parseBinary(bytes, file: file), .binary)
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let first = body.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return (try parseJSON(Array(body), file: file), .json)
        }
        return (try parseXML(bytes, file: file), .xml)
    }

    // MARK: XML

    static func parseXML(_ bytes: [UInt8], file: String) throws(ImportError) -> PlistNode {
        let root = try XMLTree.parse(bytes, file: file)
        guard root.name == "plist" else {
            throw ImportError(file: file, line: root.line, message: "not a property list: the document element is <\(root.name)>, expected <plist>")
        }
        guard root.children.count == 1, let top = root.children.first else {
            throw ImportError(file: file, line: root.line, message: "a <plist> must contain exactly one value")
        }
        return try node(top, file: file)
    }

    static func node(_ e: XMLElementNode, file: String) throws(ImportError) -> PlistNode {
        func fail(_ message: String) -> ImportError { ImportError(file: file, line: e.line, message: message) }
        let text = e.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch e.name {
        case "dict":
            var entries: [PlistNode.Entry] = []
            var i = 0
            while i < e.children.count {
                let k = e.children[i]
                guard k.name == "key" else { throw ImportError(file: file, line: k.line, message: "expected <key> in <dict>, found <\(k.name)>") }
                guard i + 1 < e.children.count else {
                    throw ImportError(file: file, line: k.line, message: "key \"\(k.text)\" has no value")
                }
                entries.append(PlistNode.Entry(key: k.text, keyLine: k.line, value: try node(e.children[i + 1], file: file)))
                i += 2
            }
            return PlistNode(value: .dictionary(entries), line: e.line)
        case "array":
            var items: [PlistNode] = []
            for c in e.children { items.append(try node(c, file: file)) }
            return PlistNode(value: .array(items), line: e.line)
        case "string":
            return PlistNode(value: .string(e.text), line: e.line)
        case "true", "false":
            return PlistNode(value: .bool(e.name == "true"), line: e.line)
        case "integer":
            guard let v = Int(text) else { throw fail("\"\(text)\" is not an integer") }
            return PlistNode(value: .integer(v), line: e.line)
        case "real":
            guard let v = Double(text) else { throw fail("\"\(text)\" is not a number") }
            return PlistNode(value: .real(v), line: e.line)
        case "date":
            guard let d = RFC3339.parse(text) else { throw fail("\"\(text)\" is not a plist date") }
            return PlistNode(value: .date(d), line: e.line)
        case "data":
            let compact = text.filter { !$0.isWhitespace }
            guard let d = Data(base64Encoded: compact) else { throw fail("<data> is not base64") }
            return PlistNode(value: .data([UInt8](d)), line: e.line)
        default:
            throw fail("unknown property list element <\(e.name)>")
        }
    }

    // MARK: binary

    static func parseBinary(_ bytes: [UInt8], file: String) throws(ImportError) -> PlistNode {
        _ = try BinaryPlistBudget.check(bytes, file: file)
        let any: Any
        do {
            any = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw ImportError(file: file, line: nil, message: "not a valid binary property list: \(error.localizedDescription)")
        }
        return try convert(any, file: file)
    }

    /// Converts Foundation objects; dictionary keys are sorted because their order is not kept.
    /// `depth` is the nesting level of `any` (1 for the top value); deeper than the cap is an error.
    static func convert(_ any: Any, depth: Int = 1, file: String) throws(ImportError) -> PlistNode {
        if depth > ImportSupport.maxNestingDepth { throw ImportSupport.tooDeep(file: file, line: nil) }
        if type(of: any) == Bool.self, let b = any as? Bool { return PlistNode(value: .bool(b), line: nil) }
        switch any {
        case let s as String:
            return PlistNode(value: .string(s), line: nil)
        case let d as [String: Any]:
            var entries: [PlistNode.Entry] = []
            for key in d.keys.sorted() {
                entries.append(PlistNode.Entry(key: key, keyLine: nil, value: try convert(d[key]!, depth: depth + 1, file: file)))
            }
            return PlistNode(value: .dictionary(entries), line: nil)
        case let a as [Any]:
            var items: [PlistNode] = []
            for item in a { items.append(try convert(item, depth: depth + 1, file: file)) }
            return PlistNode(value: .array(items), line: nil)
        case let date as Date:
            return PlistNode(value: .date(date), line: nil)
        case let data as Data:
            return PlistNode(value: .data([UInt8](data)), line: nil)
        case let n as NSNumber:
            let code = String(cString: n.objCType)
            if code == "c" || code == "B" { return PlistNode(value: .bool(n.boolValue), line: nil) }
            if code == "f" || code == "d" { return PlistNode(value: .real(n.doubleValue), line: nil) }
            return PlistNode(value: .integer(n.intValue), line: nil)
        case is NSNull:
            return PlistNode(value: .null, line: nil)
        default:
            return PlistNode(value: .string(String(describing: any)), line: nil)
        }
    }

    // MARK: JSON

    /// Validates with JSONSerialization (its messages are the precise ones), then reads lines with Yams:
    /// JSON is YAML, and Yams keeps document order and marks. Not when the text has U+0085, U+2028 or
    /// U+2029: YAML reads those as line breaks and would fold them inside strings, so the values would differ.
    static func parseJSON(_ bytes: [UInt8], file: String) throws(ImportError) -> PlistNode {
        try checkJSONDepth(bytes, file: file)
        let any: Any
        do {
            any = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            let ns = error as NSError
            let detail = (ns.userInfo["NSDebugDescription"] as? String) ?? error.localizedDescription
            throw ImportError(file: file, line: nil, message: "not valid JSON: \(detail)")
        }
        if let text = String(bytes: bytes, encoding: .utf8),
           !text.unicodeScalars.contains(where: { [0x85, 0x2028, 0x2029].contains($0.value) }),
           let node = try? Yams.compose(yaml: text),
           let converted = convert(node) {
            return converted
        }
        return try convert(any, file: file)
    }

    /// Refuses JSON whose arrays and objects nest deeper than the cap or that holds more than
    /// `ImportSupport.maxNodes` values, naming the line where it happens; a linear scan (brackets inside
    /// strings do not count), so nothing recursive runs on such input. Every value but the first follows a
    /// `[`, `,` or `:`, so counting those (and `{`) bounds the number of keys and values.
    static func checkJSONDepth(_ bytes: [UInt8], file: String) throws(ImportError) {
        var depth = 0
        var values = 1
        var line = 1
        var inString = false
        var escaped = false
        for b in bytes {
            if b == 0x0A { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                values += 1
                if depth > ImportSupport.maxNestingDepth { throw ImportSupport.tooDeep(file: file, line: line) }
                if values > ImportSupport.maxNodes { throw ImportSupport.tooManyNodes(file: file, line: line) }
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                values += 1
                if values > ImportSupport.maxNodes { throw ImportSupport.tooManyNodes(file: file, line: line) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
    }

    static func convert(_ node: Node) -> PlistNode? {
        let line = node.mark?.line
        switch node {
        case .mapping(let m):
            var entries: [PlistNode.Entry] = []
            for (k, v) in m {
                guard case .scalar(let ks) = k, let value = convert(v) else { return nil }
                entries.append(PlistNode.Entry(key: ks.string, keyLine: k.mark?.line, value: value))
            }
            return PlistNode(value: .dictionary(entries), line: line)
        case .sequence(let s):
            var items: [PlistNode] = []
            for n in s {
                guard let c = convert(n) else { return nil }
                items.append(c)
            }
            return PlistNode(value: .array(items), line: line)
        case .scalar(let s):
            if s.style != .plain { return PlistNode(value: .string(s.string), line: line) }
            switch s.string {
            case "true": return PlistNode(value: .bool(true), line: line)
            case "false": return PlistNode(value: .bool(false), line: line)
            case "null": return PlistNode(value: .null, line: line)
            default:
                if let i = Int(s.string) { return PlistNode(value: .integer(i), line: line) }
                if let d = Double(s.string) { return PlistNode(value: .real(d), line: line) }
                return nil
            }
        case .alias:
            return nil
        }
    }
}
