import SeatSecrets

/// A ticket as its QR code carries it: which seat of which show, the ticket's id, and the show issuer's
/// Ed25519 signature over them. A scanner with only the show's public key tells a real ticket from a
/// forged, altered or foreign one, offline; whether it was refunded or exchanged since is the server's
/// (or the revocation list's) to say.
///
/// The code is `SK1` and the base-32 (RFC 4648, no padding) of the payload then the 64-byte signature:
/// upper-case letters and digits only, so a QR code holds it in alphanumeric mode (5.5 bits a
/// character) and a person can type it. A 20-character show id and a 5-character seat make 102 bytes,
/// 166 characters.
public struct TicketCode: Sendable, Hashable {
    /// The first byte of the payload: its layout.
    public static let format: UInt8 = 1
    public static let prefix = "SK1"
    /// What a signature covers in front of the payload, so no other SeatKit signature passes for one.
    static let domain = Array("seatkit-ticket\u{1F}".utf8)

    public var show: String
    /// The seat's index in the venue's layout.
    public var seat: Int
    /// 8 bytes naming the ticket: from its sale and seat (`TicketCode.id(sale:seat:)`).
    public var id: [UInt8]
    /// The seat's printed name (`7-12`), so a scanner offline can say where to go; may be empty.
    public var seatName: String
    /// A real-name ticket's attendee (format 2): 8 bytes of the door's keyed hash of their document
    /// (`binding(key:document:)`), which a door with the show's door key checks a typed or read
    /// document against, offline too; nil for a ticket without a name (format 1).
    public var binding: [UInt8]?
    /// The attendee's name masked (`王*明`), for the door to show; empty without one.
    public var attendee: String

    public init(show: String, seat: Int, id: [UInt8], seatName: String = "", binding: [UInt8]? = nil, attendee: String = "") {
        self.show = show; self.seat = seat; self.id = id; self.seatName = seatName; self.binding = binding; self.attendee = attendee
    }

    /// The id of the ticket of `seat` sold by the hold `sale`: SHA-256's first 8 bytes. A seat sold
    /// again (after a refund, or an exchange) has another sale, so another ticket id; a real-name ticket
    /// given to another person (or bound to its first) is its next `generation`, another ticket, and
    /// the old code stands no more. Generation 0 is every ticket's first id.
    public static func id(sale: String, seat: Int, generation: Int = 0) -> [UInt8] {
        let next = generation > 0 ? "\u{1F}g\(generation)" : ""
        return Array(SHA256.hash("seatkit-ticket-id\u{1F}\(sale)\u{1F}\(seat)" + next).prefix(8))
    }

    /// The door's check of a document against a ticket: 8 bytes of HMAC-SHA-256 under the show's door
    /// key of the document as `IdentityDocument.canonical` writes it (`idCard:11010519491231002X`).
    public static func binding(key: [UInt8], document: String) -> [UInt8] {
        Array(HMACSHA256.code(key: key, message: Array(("seatkit-door-id\u{1F}" + document).utf8)).prefix(8))
    }

    /// The first byte of a real-name ticket's payload.
    public static let boundFormat: UInt8 = 2

    /// The id as 16 lower-case hex digits (the API's `ticketId`).
    public var idHex: String { SHA256.hex(id) }

    /// The payload: format, id, the seat as a LEB128 varint, the show's id and the seat's name (each a
    /// length byte and UTF-8, at most 255 bytes).
    var payload: [UInt8] {
        var out: [UInt8] = [binding == nil ? Self.format : Self.boundFormat]
        out += id
        if let binding { out += binding.prefix(8) }
        var seat = UInt64(max(0, self.seat))
        repeat {
            let low = UInt8(seat & 0x7F)
            seat >>= 7
            out.append(seat == 0 ? low : low | 0x80)
        } while seat != 0
        for text in binding == nil ? [show, seatName] : [show, seatName, attendee] {
            let bytes = Array(text.utf8.prefix(255))
            out.append(UInt8(bytes.count))
            out += bytes
        }
        return out
    }

    /// The code, signed by `issuer`.
    /// - Complexity: one Ed25519 signature.
    public func signed(by issuer: Ed25519Key) -> String {
        let payload = payload
        return Self.prefix + Base32.encode(payload + issuer.sign(Self.domain + payload))
    }

    /// The ticket in `code` and whether its signature is `publicKey`'s, or why it cannot be read.
    public static func read(_ code: String) throws(TicketCodeError) -> (ticket: TicketCode, signed: [UInt8], signature: [UInt8]) {
        let text = code.trimmingSpaces.uppercased()
        guard text.hasPrefix(prefix) else { throw .notATicket }
        guard let bytes = Base32.decode(text.dropFirst(prefix.count)) else { throw .notATicket }
        // format, 8 id bytes, at least a byte of seat and the two lengths, the signature.
        guard bytes.count >= 1 + 8 + 3 + 64 else { throw .truncated }
        guard bytes[0] == format || bytes[0] == boundFormat else { throw .unknownFormat(bytes[0]) }
        let bound = bytes[0] == boundFormat
        let payload = Array(bytes.dropLast(64)), signature = Array(bytes.suffix(64))
        guard !bound || payload.count >= 17 + 4 else { throw .truncated }
        var at = bound ? 17 : 9, seat: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard at < payload.count, shift < 35 else { throw .truncated }
            let b = payload[at]
            at += 1
            seat |= UInt64(b & 0x7F) << shift
            shift += 7
            if b & 0x80 == 0 { break }
        }
        var texts: [String] = []
        for _ in 0..<(bound ? 3 : 2) {
            guard at < payload.count, at + 1 + Int(payload[at]) <= payload.count else { throw .truncated }
            let bytes = payload[(at + 1)..<(at + 1 + Int(payload[at]))], text = String(decoding: bytes, as: UTF8.self)
            guard text.utf8.elementsEqual(bytes) else { throw .truncated }
            texts.append(text)
            at += 1 + bytes.count
        }
        guard at == payload.count, !texts[0].isEmpty else { throw .truncated }
        let ticket = TicketCode(
            show: texts[0], seat: Int(seat), id: Array(payload[1..<9]), seatName: texts[1], binding: bound ? Array(payload[9..<17]) : nil,
            attendee: bound ? texts[2] : "")
        return (ticket, payload, signature)
    }

    /// The ticket in `code` if `publicKey` signed it; nil for a forged, altered or foreign code.
    public static func verified(_ code: String, publicKey: [UInt8]) throws(TicketCodeError) -> TicketCode? {
        let (ticket, payload, signature) = try read(code)
        return isSigned(payload, signature, by: publicKey) ? ticket : nil
    }

    /// Whether `signature` is `publicKey`'s over a payload `read` gave: a caller that read the code first
    /// (to find its show's key) checks it without reading it again.
    public static func isSigned(_ payload: [UInt8], _ signature: [UInt8], by publicKey: [UInt8]) -> Bool {
        Ed25519Key.verify(signature, of: domain + payload, publicKey: publicKey)
    }
}

/// Why a code is not a ticket at all (a forged one reads, and fails its signature).
public enum TicketCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    case notATicket
    case truncated
    case unknownFormat(UInt8)

    public var description: String {
        switch self {
        case .notATicket: "not a SeatKit ticket code (it starts SK1 and is letters A–Z and digits 2–7)"
        case .truncated: "the ticket code is cut short"
        case .unknownFormat(let f): "a ticket code of format \(f), which this server does not read"
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let scalars = unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars.lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) } ?? start
        return Substring(scalars[start..<max(start, end)])
    }
}
