import CQREncode
import Foundation

/// A ticket's QR code as SVG: libqrencode's modules at error correction M (15 % of the code may be
/// smudged or creased), alphanumeric mode (the code is letters and digits: 5.5 bits a character, so a
/// 166-character code is version 7, 45×45 modules), drawn as one path with a quiet zone of 4 modules.
enum TicketPicture {
    /// The modules, row by row (true: dark), or nil when the text does not fit a QR code.
    static func modules(_ text: String) -> [[Bool]]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour (qrencode.h).
        return (0..<width).map { y in (0..<width).map { x in code.pointee.data[y * width + x] & 1 == 1 } }
    }

    /// The SVG: `label` spoken for the picture (the seat and show), black on white.
    static func svg(_ text: String, label: String) -> String? {
        guard let rows = modules(text) else { return nil }
        let size = rows.count + 8
        var path = ""
        for (y, row) in rows.enumerated() {
            var x = 0
            while x < row.count {
                guard row[x] else { x += 1; continue }
                var end = x
                while end < row.count && row[end] { end += 1 }
                path += "M\(x + 4) \(y + 4)h\(end - x)v1h-\(end - x)z"
                x = end
            }
        }
        let spoken = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: "\"", with: "&quot;")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" width="\(size * 6)" height="\(size * 6)" role="img" aria-label="\(spoken)" shape-rendering="crispEdges">\
            <title>\(spoken)</title><rect width="\(size)" height="\(size)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
