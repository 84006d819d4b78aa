import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element as importers need it: name, attributes, direct text, children and the line it starts on.
struct XMLElementNode {
    /// Element name, with any namespace prefix as written.
    var name: String
    /// Attributes by name as written.
    var attributes: [String: String]
    /// Concatenated character data directly inside this element (entities resolved).
    var text: String
    /// Child elements in document order.
    var children: [XMLElementNode]
    /// 1-based line of the start tag.
    var line: Int

    /// Child elements named `name`.
    func children(named name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }
}

/// Parses XML into `XMLElementNode`s with libxml2 (FoundationXML); external entities and DTDs are never loaded.
///
/// Input must be UTF-8: FoundationXML traps on a name that libxml2 hands over as invalid UTF-8, so the bytes
/// are checked first (see `checkEncoding`). Elements nested deeper than `ImportSupport.maxNestingDepth` stop
/// the parse, so neither the tree nor the importers' walks over it can exhaust the stack.
enum XMLTree {
    /// The document element, or an error naming the line where parsing failed.
    static func parse(_ bytes: [UInt8], file: String) throws(ImportError) -> XMLElementNode {
        try checkEncoding(bytes, file: file)
        try checkDoctype(bytes, file: file)
        try XMLProcessingInstructions.refuse(bytes, file: file)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        if let line = builder.tooDeepLine {
            throw ImportSupport.tooDeep(file: file, line: line)
        }
        if let line = builder.tooManyLine {
            throw ImportSupport.tooManyNodes(file: file, line: line)
        }
        guard ok, let root = builder.root else {
            let reason = parser.parserError.map { describe($0) } ?? "no document element"
            throw ImportError(file: file, line: parser.lineNumber > 0 ? parser.lineNumber : nil,
                              message: "not well-formed XML: \(reason)")
        }
        return root
    }

    /// Refuses input that is not UTF-8 (optionally with a byte order mark): UTF-16 and UTF-32, a prolog
    /// declaring another encoding while the file has non-ASCII bytes, and invalid UTF-8 (with its line).
    static func checkEncoding(_ bytes: [UInt8], file: String) throws(ImportError) {
        let convert = "; only UTF-8 is supported (convert the file, e.g. with iconv)"
        let head = Array(bytes.prefix(4))
        if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            throw ImportError(file: file, line: nil, message: "the file is UTF-32 encoded\(convert)")
        }
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
            throw ImportError(file: file, line: nil, message: "the file is UTF-16 encoded\(convert)")
        }
        if head.contains(0) {
            throw ImportError(file: file, line: nil, message: "the file looks UTF-16 or UTF-32 encoded (NUL bytes at its start)\(convert)")
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        if let declared = declaredEncoding(body), !["utf-8", "utf8"].contains(declared.lowercased()),
           body.contains(where: { $0 >= 0x80 }) {
            throw ImportError(file: file, line: 1, message: "the XML declaration names encoding \"\(declared)\"\(convert)")
        }
        if let offset = ImportSupport.firstInvalidUTF8(bytes) {
            let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            let hex = String(bytes[offset], radix: 16, uppercase: true)
            throw ImportError(file: file, line: line,
                              message: "not valid UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) at offset \(offset)\(convert)")
        }
    }

    /// The `encoding` pseudo-attribute of the XML declaration, if there is one.
    static func declaredEncoding(_ body: ArraySlice<UInt8>) -> String? {
        guard body.starts(with: Array("<?xml".utf8)), let end = body.firstRange(of: Array("?>".utf8)) else { return nil }
        let decl = String(decoding: body[..<end.lowerBound], as: UTF8.self)
        guard let key = decl.range(of: "encoding") else { return nil }
        var rest = decl[key.upperBound...].drop(while: \.isWhitespace)
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop(while: \.isWhitespace)
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// Refuses a document type declaration with an internal subset (`<!DOCTYPE plist [ … ]>`): its entities
    /// would be expanded (exponentially, when they nest) or silently dropped, so the values read would not be
    /// the values written. A DOCTYPE naming only an external DTD, like Xcode's plist header, is accepted (the
    /// DTD is never loaded). Only the prolog is scanned: comments and processing instructions are skipped.
    static func checkDoctype(_ bytes: [UInt8], file: String) throws(ImportError) {
        var c = XMLByteCursor(bytes)
        while c.i < bytes.count {
            let b = bytes[c.i]
            if b == 0x0A { c.line += 1 }
            guard b == UInt8(ascii: "<") else { c.i += 1; continue }
            if c.at("<?") { c.skip(past: "?>"); continue }
            if c.at("<!--") { c.skip(past: "-->"); continue }
            guard c.at("<!DOCTYPE") else { return }
            // Inside the declaration: quoted identifiers, then an optional [internal subset].
            var quote: UInt8?
            while c.i < bytes.count {
                let ch = bytes[c.i]
                if ch == 0x0A { c.line += 1 }
                if let q = quote {
                    if ch == q { quote = nil }
                } else if ch == UInt8(ascii: "\"") || ch == UInt8(ascii: "'") {
                    quote = ch
                } else if ch == UInt8(ascii: "[") {
                    try refuseSubset(bytes, from: c.i, line: c.line, file: file)
                } else if ch == UInt8(ascii: ">") {
                    return
                }
                c.i += 1
            }
            return
        }
    }

    /// The error for an internal DTD subset starting at `start`: names the first entity declaration's line.
    static func refuseSubset(_ bytes: [UInt8], from start: Int, line: Int, file: String) throws(ImportError) {
        let entity = Array("<!ENTITY".utf8)
        var l = line
        var i = start
        while i < bytes.count, bytes[i] != UInt8(ascii: "]") {
            if bytes[i] == 0x0A { l += 1 }
            if bytes[i...].starts(with: entity) {
                throw ImportError(file: file, line: l, message: "DTD entity declarations are not accepted (line \(l)); write the values out")
            }
            i += 1
        }
        throw ImportError(file: file, line: line,
                          message: "DTD internal subsets are not accepted (line \(line)); a plain <!DOCTYPE plist PUBLIC …> line is")
    }

    /// libxml2's error, in words where Foundation on Linux gives only a number.
    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let d = ns.userInfo[NSLocalizedDescriptionKey] as? String, !d.isEmpty, !d.hasPrefix("The operation could not") {
            return d
        }
        let words: [Int: String] = [
            4: "the document is empty or does not start with an element",
            5: "extra content after the document element",
            9: "an invalid character",
            23: "an unescaped '&' (write &amp;)",
            26: "a reference to an undeclared entity",
            38: "an unescaped '<' in an attribute value",
            39: "an attribute without a value",
            40: "an unterminated attribute value",
            41: "a start tag that is not closed",
            43: "an unterminated <![CDATA[ section",
            45: "an unterminated comment",
            64: "a malformed XML declaration",
            68: "a malformed name",
            73: "a tag that is not closed with '>'",
            76: "an end tag that does not match its start tag",
            77: "the document ends before its elements are closed",
            89: "an entity that refers to itself",
        ]
        return words[ns.code].map { "\($0) (XML parser error \(ns.code))" } ?? "XML parser error \(ns.code)"
    }
}

/// SAX delegate that builds the element tree; used on one thread, for one parse.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    var stack: [XMLElementNode] = []
    var root: XMLElementNode?
    /// Line of the first element nested deeper than `ImportSupport.maxNestingDepth`; the parse is aborted there.
    var tooDeepLine: Int?
    /// Line of the element past `ImportSupport.maxNodes`; the parse is aborted there.
    var tooManyLine: Int?
    /// Elements started so far.
    var count = 0

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard tooDeepLine == nil, tooManyLine == nil else { return }
        count += 1
        guard count <= ImportSupport.maxNodes else {
            tooManyLine = parser.lineNumber
            stack.removeAll()
            parser.abortParsing()
            return
        }
        guard stack.count < ImportSupport.maxNestingDepth else {
            tooDeepLine = parser.lineNumber
            stack.removeAll()
            parser.abortParsing()
            return
        }
        stack.append(XMLElementNode(name: elementName, attributes: attributeDict, text: "", children: [],
                                    line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard tooDeepLine == nil, tooManyLine == nil, let done = stack.popLast() else { return }
        if stack.isEmpty {
            root = done
        } else {
            stack[stack.count - 1].children.append(done)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard tooDeepLine == nil, tooManyLine == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard tooDeepLine == nil, tooManyLine == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }
}
