import PinGuardCore

/// Refuses XML processing instructions (`<?target data?>`) other than the XML declaration at the start.
///
/// Pin configurations never need one, and no client reads them the same way (FoundationXML on Linux crashed
/// on `<?x?>` without data when pinguard still parsed with it). Comments and CDATA
/// sections are skipped, so `<?` inside them is text. Linear in the input.
enum XMLProcessingInstructions {
    static func refuse(_ bytes: [UInt8], file: String) throws(ImportError) {
        var c = XMLByteCursor(bytes)
        let declarationAt = c.i
        while c.i < bytes.count {
            let b = bytes[c.i]
            if b == 0x0A { c.line += 1; c.i += 1; continue }
            guard b == UInt8(ascii: "<"), c.i + 1 < bytes.count else { c.i += 1; continue }
            if c.at("<!--") { c.skip(past: "-->"); continue }
            if c.at("<![CDATA[") { c.skip(past: "]]>"); continue }
            guard bytes[c.i + 1] == UInt8(ascii: "?") else { c.i += 1; continue }
            let isDeclaration = c.i == declarationAt && c.at("<?xml") && c.i + 5 < bytes.count
                && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[c.i + 5])
            guard isDeclaration else {
                throw ImportError(file: file, line: c.line,
                                  message: "XML processing instructions (<?…?>) are not accepted (line \(c.line)); only the <?xml …?> declaration at the start is")
            }
            // The declaration ends at its own `?>`: markup inside it means it never closed, and libxml2
            // would read what follows differently from this scan.
            let declarationLine = c.line
            var j = c.i + 5
            while j + 1 < bytes.count, !(bytes[j] == UInt8(ascii: "?") && bytes[j + 1] == UInt8(ascii: ">")) {
                if bytes[j] == UInt8(ascii: "<") || bytes[j] == 0 {
                    throw ImportError(file: file, line: declarationLine,
                                      message: "the <?xml …?> declaration is not closed before other markup (line \(declarationLine))")
                }
                if bytes[j] == 0x0A { c.line += 1 }
                j += 1
            }
            c.i = j + 2
        }
    }
}
