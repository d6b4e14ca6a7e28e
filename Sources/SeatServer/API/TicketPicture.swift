import CQREncode
import CZlib
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

    /// The PNG: 1-bit greyscale, `scale` pixels a module (8: 392 pixels for version 6, 30 mm at 330
    /// dpi on an 80 mm counter printer), the rows deflated by zlib. Chunks: IHDR, IDAT, IEND.
    static func png(_ text: String, scale: Int = 8) -> [UInt8]? {
        guard let rows = modules(text), scale > 0 else { return nil }
        let side = (rows.count + 8) * scale, stride = (side + 7) / 8
        var raw = [UInt8](repeating: 0, count: side * (stride + 1))
        for y in 0..<side {
            let base = y * (stride + 1)  // filter byte 0, then the row's bits, 1 for white
            for x in 0..<side {
                let my = y / scale - 4, mx = x / scale - 4
                let dark = my >= 0 && my < rows.count && mx >= 0 && mx < rows.count && rows[my][mx]
                if !dark { raw[base + 1 + x / 8] |= 0x80 >> UInt8(x % 8) }
            }
        }
        var deflated = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
        var length = uLongf(deflated.count)
        guard compress2(&deflated, &length, raw, uLong(raw.count), 9) == Z_OK else { return nil }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
        }
        func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let header = bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [1, 0, 0, 0, 0]  // 1 bit, greyscale
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", Array(deflated.prefix(Int(length))))
            + chunk("IEND", [])
    }
}
