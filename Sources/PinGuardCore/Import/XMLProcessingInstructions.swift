/// Refuses XML processing instructions (`<?target data?>`) other than the XML declaration at the start.
///
/// FoundationXML on Linux dereferences the data of a processing instruction without checking it, so
/// `<?x?>` (no data) crashes the process; pin configurations never need one. Comments and CDATA
/// sections are skipped, so `<?` inside them is text. Linear in the input.
enum XMLProcessingInstructions {
    static func refuse(_ bytes: [UInt8], file: String) throws(ImportError) {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let declarationAt = i
        var line = 1
        func skip(past end: [UInt8]) {
            while i < bytes.count, !bytes[i...].starts(with: end) {
                if bytes[i] == 0x0A { line += 1 }
                i += 1
            }
            i += end.count
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1; i += 1; continue }
            guard b == UInt8(ascii: "<"), i + 1 < bytes.count else { i += 1; continue }
            if bytes[i...].starts(with: Array("<!--".utf8)) { skip(past: Array("-->".utf8)); continue }
            if bytes[i...].starts(with: Array("<![CDATA[".utf8)) { skip(past: Array("]]>".utf8)); continue }
            if bytes[i + 1] == UInt8(ascii: "?") {
                let isDeclaration = i == declarationAt && bytes[i...].starts(with: Array("<?xml".utf8))
                    && i + 5 < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i + 5])
                guard isDeclaration else {
                    throw ImportError(file: file, line: line,
                                      message: "XML processing instructions (<?…?>) are not accepted (line \(line)); only the <?xml …?> declaration at the start is")
                }
                // The declaration ends at its own `?>`: markup inside it means it never closed, and libxml2
                // would read what follows differently from this scan.
                var j = i + 5
                let declarationLine = line
                while j + 1 < bytes.count, !(bytes[j] == UInt8(ascii: "?") && bytes[j + 1] == UInt8(ascii: ">")) {
                    if bytes[j] == UInt8(ascii: "<") || bytes[j] == 0 {
                        throw ImportError(file: file, line: declarationLine, message: "the <?xml …?> declaration is not closed before other markup (line \(declarationLine))")
                    }
                    if bytes[j] == 0x0A { line += 1 }
                    j += 1
                }
                i = j + 2
                continue
            }
            i += 1
        }
    }
}
