/// Builds JSON text by appending bytes; used for SeatKit's own formats, whose member order is fixed so
/// that the same layout always encodes to the same bytes (a stable ETag and fingerprint).
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    public mutating func raw(_ c: UInt8) { bytes.append(c) }

    /// A JSON string literal, escaping quotes, backslashes and control characters.
    public mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(c)
            case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(c)
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(c >> 4)])
                bytes.append(hex[Int(c & 0xF)])
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON string literal for `s`, as `string` writes it.
    /// A JSON array of strings: `["7-1","7-2"]`.
    public mutating func strings(_ list: [String]) {
        raw("[")
        for (k, s) in list.enumerated() {
            if k > 0 { raw(",") }
            string(s)
        }
        raw("]")
    }

    public static func quoted(_ s: String) -> String {
        var w = JSONWriter()
        w.string(s)
        return w.text
    }

    /// A number in its shortest round-tripping form; integral values without a fraction.
    public mutating func number(_ value: Double) {
        if value.rounded() == value, abs(value) < 1e15 {
            raw(String(Int64(value)))
        } else {
            raw(String(value))
        }
    }

    public mutating func number(_ value: Float) {
        if value.rounded() == value, abs(value) < 1e7 {
            raw(String(Int64(value)))
        } else {
            raw(String(value))
        }
    }

    public mutating func number(_ value: Int) { raw(String(value)) }

    /// `"key":` with the separating comma when `first` is false.
    public mutating func key(_ name: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }
}

extension JSONWriter {
    /// Writes a parsed value back (members in their order; integers as integers).
    /// - Complexity: O(size of the value).
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .number(let n): if let i = n.integer { raw(String(i)) } else { number(n.double) }
        case .string(let s): string(s)
        case .array(let list):
            raw("[")
            for (k, item) in list.enumerated() { if k > 0 { raw(",") }; value(item) }
            raw("]")
        case .object(let o):
            raw("{")
            for (k, (name, item)) in zip(o.keys, o.values).enumerated() { key(name, first: k == 0); value(item) }
            raw("}")
        }
    }
}
