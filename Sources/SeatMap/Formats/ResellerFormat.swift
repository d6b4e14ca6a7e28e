import SeatJSON
/// The flat seat lists of cinema systems and ticket resellers (`docs/formats/reseller.md`): one object
/// per seat, wherever the list sits in its wrapper (`data`, `seats`, `hallSeats`, `HallSites.HallSite`,
/// a top-level array), in camelCase, PascalCase or snake_case:
/// `{"seatNo","seatRow","seatCol","graphRow","graphCol","seatPieceNo","seatPieceName","seatType","seatState"}`.
/// `graphRow`/`graphCol` place a seat on the grid (gaps are aisles), `seatRow`/`seatCol` are printed.
/// `seatType` says what a seat is (`N`, `L`/`R` couple halves, `M` the middle of a triple; or
/// `NORMAL`, `LOVE1`, `LOVE2`); `seatState` is this format's own (-1 not for sale, 0 for sale), and a
/// status word (`SELL`, `UNSELL`, `MANUAL_LOCK`, `DELETE`) is read too. A piece number either groups
/// the seats that are sold together (couples) or names an area with its own price (`seatPieceName`).
enum ResellerFormat {
    /// The seat list, found breadth-first up to four levels down, with the objects around it (for the
    /// hall's id and name) and its path.
    static func seatList(_ root: JSONValue) -> (seats: [JSONValue], around: [JSONObject], path: String)? {
        var queue: [(JSONValue, [JSONObject], String)] = [(root, [], "")]
        var depth = 0
        while !queue.isEmpty && depth <= 4 {
            var next: [(JSONValue, [JSONObject], String)] = []
            for (value, around, path) in queue {
                if let list = value.arrayValue {
                    if let first = list.first?.objectValue, looksLikeSeat(first) { return (list, around, path) }
                    continue
                }
                guard let o = value.objectValue else { continue }
                for (key, child) in zip(o.keys, o.values) { next.append((child, around + [o], path.isEmpty ? key : "\(path).\(key)")) }
            }
            queue = next
            depth += 1
        }
        return nil
    }

    static func looksLikeSeat(_ o: JSONObject) -> Bool {
        field(o, "seatNo") != nil && (field(o, "graphRow") != nil || field(o, "seatRow") != nil)
    }

    /// The key as this document spells it: `seatNo`, `SeatNo` or `seat_no` (nil when absent).
    /// - Complexity: O(members); no allocation for a name in `spellingsOf` (every name this format reads).
    static func field(_ o: JSONObject, _ camel: String) -> String? {
        let names = spellingsOf[camel] ?? spellings(camel)
        for k in names.exact {
            for i in o.keys.indices where o.keys[i] == k && o.values[i] != .null { return k }
        }
        // One vendor spells the piece number `SeatpieceNo`: any case, compared byte by byte.
        for i in o.keys.indices where o.values[i] != .null && sameLetters(o.keys[i], names.lower) { return o.keys[i] }
        return nil
    }

    /// A name's spellings: camelCase, PascalCase, snake_case, and its ASCII lowercase for the rest.
    static func spellings(_ camel: String) -> (exact: [String], lower: [UInt8]) {
        let pascal = camel.prefix(1).uppercased() + camel.dropFirst()
        var snake = ""
        for ch in camel { if ch.isUppercase { snake += "_" + ch.lowercased() } else { snake.append(ch) } }
        return ([camel, pascal, snake], Array(camel.lowercased().utf8))
    }

    /// Made once: building them a seat (`isUppercase`, `uppercased`) was most of an import (5× slower a
    /// seat than cinema-grid on 20,000 seats).
    static let spellingsOf: [String: (exact: [String], lower: [UInt8])] = Dictionary(
        uniqueKeysWithValues: [
            "seatNo", "seatRow", "seatCol", "graphRow", "graphCol", "seatType", "type", "seatPieceNo", "seatPieceName", "seatState",
            "seatStatus", "status", "state", "hallCode", "hallId", "hallName", "hallNo",
        ].map { ($0, spellings($0)) })

    /// `key` equals the ASCII-lowercase `lower` but for the case of ASCII letters.
    @inline(__always) static func sameLetters(_ key: String, _ lower: [UInt8]) -> Bool {
        var key = key
        return key.withUTF8 { k in
            guard k.count == lower.count else { return false }
            for i in 0..<k.count {
                let c = k[i] >= 65 && k[i] <= 90 ? k[i] + 32 : k[i]
                if c != lower[i] { return false }
            }
            return true
        }
    }

    /// What a seat's type code says it is; nil for a code this format does not know.
    static func kind(_ code: String) -> SeatKind? {
        switch code.uppercased() {
        case "N", "NORMAL", "0", "1": return .single
        case "L", "LOVE1": return .left
        case "R", "LOVE2": return .right
        case "M": return .middle
        default: return nil
        }
    }

    enum SeatKind { case single, left, middle, right }

    /// A status word's meaning; nil for a word this format does not know. `DELETE`: no seat there.
    static func statusWord(_ word: String) -> SeatStatus?? {
        switch word.uppercased() {
        case "SELL", "AVAILABLE", "N": return .some(.available)
        case "UNSELL", "SOLD", "LK", "LOCK", "LOCKED": return .some(.sold)
        case "MANUAL_LOCK", "BLOCKED": return .some(.blocked)
        case "DELETE", "DELETED": return .some(nil)
        default: return nil
        }
    }
}
