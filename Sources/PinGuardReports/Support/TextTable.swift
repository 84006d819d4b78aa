import Foundation
import PinGuardCore

/// Left-aligned plain-text columns.
public enum TextTable {
    /// Renders rows under a header, two spaces between columns, each line indented by two spaces.
    public static func render(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for r in rows { for (i, cell) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            "  " + cells.enumerated().map { i, c in
                i == cells.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }
        return line(header) + rows.map(line).joined()
    }
}
