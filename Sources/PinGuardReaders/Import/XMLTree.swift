import CLibXML2
import Foundation
import PinGuardCore

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

/// Parses XML into `XMLElementNode`s with libxml2's streaming reader; external entities and DTDs are never
/// loaded and nothing goes to the network.
///
/// Elements nested deeper than `ImportSupport.maxNestingDepth`, or more than `ImportSupport.maxNodes` of them,
/// stop the parse, so neither the tree nor the importers' walks over it can exhaust the stack or memory.
/// libxml2 is called directly rather than through FoundationXML, whose `XMLParser` on Linux keeps a few
/// kilobytes per parse of some malformed documents (found by hour-long fuzzing) and traps on invalid UTF-8.
enum XMLTree {
    /// The document element, or an error naming the line where parsing failed.
    static func parse(_ bytes: [UInt8], file: String) throws(ImportError) -> XMLElementNode {
        try checkEncoding(bytes, file: file)
        try checkDoctype(bytes, file: file)
        try XMLProcessingInstructions.refuse(bytes, file: file)
        guard bytes.count <= Int(Int32.max) else {
            throw ImportError(file: file, line: nil, message: "the file is too large to parse")
        }
        let errors = XMLErrorSink()
        let reader: xmlTextReaderPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                xmlReaderForMemory($0, Int32(buffer.count), nil, "UTF-8",
                                   Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOCDATA.rawValue))
            }
        }
        guard let reader else {
            throw ImportError(file: file, line: nil, message: "not well-formed XML: the document is empty")
        }
        defer { xmlFreeTextReader(reader) }
        let sink = Unmanaged.passRetained(errors)
        defer { sink.release() }
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLErrorSink>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }, sink.toOpaque())
        var builder = XMLTreeBuilder()
        while true {
            let step = xmlTextReaderRead(reader)
            if step == 0 { break }
            if step < 0 {
                let first = errors.first
                let line = first.map { Int($0.line) }.flatMap { $0 > 0 ? $0 : nil }
                    ?? (xmlTextReaderGetParserLineNumber(reader) > 0 ? Int(xmlTextReaderGetParserLineNumber(reader)) : nil)
                throw ImportError(file: file, line: line,
                                  message: "not well-formed XML: \(first.map(describe) ?? "the parser stopped")")
            }
            try builder.take(reader, file: file)
        }
        guard let root = builder.root else {
            let reason = errors.first.map(describe) ?? "no document element"
            throw ImportError(file: file, line: nil, message: "not well-formed XML: \(reason)")
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

    /// libxml2's error in words: the known codes in plain language, any other as libxml2 words it (escaped and
    /// cut, since it can quote the input).
    static func describe(_ error: XMLErrorSink.Failure) -> String {
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
        if let known = words[error.code] { return "\(known) (XML parser error \(error.code))" }
        let message = error.message.trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "XML parser error \(error.code)"
            : "\(EchoedInput.bare(message)) (XML parser error \(error.code))"
    }
}

/// Collects the errors libxml2 reports while reading one document (through its structured error handler).
final class XMLErrorSink {
    /// One libxml2 error: its code, line and message.
    struct Failure {
        var code: Int
        var line: Int
        var message: String
    }

    /// The first error (not warning) reported.
    private(set) var first: Failure?

    /// Keeps `error` if it is the first error.
    func record(_ error: xmlError) {
        guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        first = Failure(code: Int(error.code), line: Int(error.line),
                        message: error.message.map { String(cString: $0) } ?? "")
    }
}

/// Builds the element tree from the reader's node stream; one parse, one thread.
private struct XMLTreeBuilder {
    var stack: [XMLElementNode] = []
    var root: XMLElementNode?
    /// Elements started so far.
    var count = 0

    /// Takes the reader's current node: opens, closes or adds text to an element.
    mutating func take(_ reader: xmlTextReaderPtr, file: String) throws(ImportError) {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            let line = Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
            count += 1
            guard count <= ImportSupport.maxNodes else { throw ImportSupport.tooManyNodes(file: file, line: line) }
            guard stack.count < ImportSupport.maxNestingDepth else { throw ImportSupport.tooDeep(file: file, line: line) }
            var node = XMLElementNode(name: Self.string(xmlTextReaderConstName(reader)), attributes: [:], text: "",
                                      children: [], line: line)
            if xmlTextReaderMoveToFirstAttribute(reader) == 1 {
                repeat {
                    node.attributes[Self.string(xmlTextReaderConstName(reader))] = Self.string(xmlTextReaderConstValue(reader))
                } while xmlTextReaderMoveToNextAttribute(reader) == 1
                xmlTextReaderMoveToElement(reader)
            }
            stack.append(node)
            if xmlTextReaderIsEmptyElement(reader) == 1 { close() }
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            close()
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
             Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += Self.string(xmlTextReaderConstValue(reader))
        default:
            return
        }
    }

    /// Ends the innermost open element.
    private mutating func close() {
        guard let done = stack.popLast() else { return }
        if stack.isEmpty {
            root = done
        } else {
            stack[stack.count - 1].children.append(done)
        }
    }

    /// A libxml2 string (UTF-8), or "" for none.
    private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }
}
