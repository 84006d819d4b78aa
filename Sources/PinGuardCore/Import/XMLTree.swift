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
enum XMLTree {
    /// The document element, or an error naming the line where parsing failed.
    static func parse(_ bytes: [UInt8], file: String) throws(ImportError) -> XMLElementNode {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        guard ok, let root = builder.root else {
            let reason = parser.parserError.map { describe($0) } ?? "no document element"
            throw ImportError(file: file, line: parser.lineNumber > 0 ? parser.lineNumber : nil,
                              message: "not well-formed XML: \(reason)")
        }
        return root
    }

    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let d = ns.userInfo[NSLocalizedDescriptionKey] as? String, !d.isEmpty { return d }
        return "XML parser error \(ns.code)"
    }
}

/// SAX delegate that builds the element tree; used on one thread, for one parse.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    var stack: [XMLElementNode] = []
    var root: XMLElementNode?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        stack.append(XMLElementNode(name: elementName, attributes: attributeDict, text: "", children: [],
                                    line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard let done = stack.popLast() else { return }
        if stack.isEmpty {
            root = done
        } else {
            stack[stack.count - 1].children.append(done)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }
}
