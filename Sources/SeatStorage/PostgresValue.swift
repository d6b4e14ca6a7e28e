import Foundation

/// Writes values of PostgreSQL types, composites and arrays of them included, in one of the two forms
/// a batch is sent in: the binary format (`PostgresBinaryWriter`: `record_send`, `array_send`, what the
/// instance binds, so the database parses no text) or SQL text (`PostgresSQLWriter`: what pgbench
/// sends). What is written is said once, against this protocol (`PostgresStore.writeChanges`); the two
/// writers cannot disagree on the fields' order or types.
protocol PostgresValueWriter {
    mutating func text(_ value: String?)
    mutating func int4(_ value: Int32)
    mutating func int8(_ value: Int64)
    mutating func bool(_ value: Bool)
    /// An `int[]`.
    mutating func ints(_ values: [Int32])
    /// A composite of `type` with `fields` fields, written by `body`.
    mutating func row(_ type: PostgresComposite, fields: Int, _ body: (inout Self) -> Void)
    /// A one-dimensional array of `count` composites of `type`, written by `body` (a row each).
    mutating func rows(_ type: PostgresComposite, count: Int, _ body: (inout Self) -> Void)
    /// NULL of the composite `type`.
    mutating func null(_ type: PostgresComposite)
}

/// The composite types `seatkit_write` takes (migration 20).
enum PostgresComposite: String, CaseIterable, Sendable {
    case change = "seatkit_change"
    case hold = "seatkit_hold"
    case claim = "seatkit_claim"
    case key = "seatkit_key"
}

/// The binary format. A composite's fields each carry their type's OID, and an array its element's:
/// built-ins' are fixed (`pg_type`: text 25, int8 20, int4 23, bool 16, int4[] 1007), the composites'
/// are this database's (`oids`, looked up by `PostgresConnection.compositeOIDs`).
struct PostgresBinaryWriter: PostgresValueWriter {
    /// Each composite's OID, then its array type's.
    let oids: [PostgresComposite: (type: UInt32, array: UInt32)]
    private(set) var bytes: [UInt8] = []
    /// Where the field being written starts, when inside a composite (its type and length go first).
    private var inRow = false

    init(oids: [PostgresComposite: (type: UInt32, array: UInt32)], capacity: Int = 4096) {
        self.oids = oids
        bytes.reserveCapacity(capacity)
    }

    private mutating func put(_ v: UInt32) { withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) } }

    /// A field's or element's length, written once its bytes are (-1: NULL).
    private mutating func sized(_ oid: UInt32, _ body: (inout Self) -> Void) {
        if inRow { put(oid) }
        let at = bytes.count
        put(0)
        let outer = inRow
        inRow = false
        body(&self)
        inRow = outer
        let length = UInt32(bytes.count - at - 4).bigEndian
        withUnsafeBytes(of: length) { for i in 0..<4 { bytes[at + i] = $0[i] } }
    }

    mutating func text(_ value: String?) {
        guard let value else {
            if inRow { put(25) }
            return put(UInt32(bitPattern: -1))
        }
        sized(25) { $0.bytes.append(contentsOf: value.utf8) }
    }
    mutating func int4(_ value: Int32) { sized(23) { $0.put(UInt32(bitPattern: value)) } }
    mutating func int8(_ value: Int64) { sized(20) { w in withUnsafeBytes(of: value.bigEndian) { w.bytes.append(contentsOf: $0) } } }
    mutating func bool(_ value: Bool) { sized(16) { $0.bytes.append(value ? 1 : 0) } }

    mutating func ints(_ values: [Int32]) {
        sized(1007) { w in
            w.arrayHeader(element: 23, count: values.count)
            for v in values {
                w.put(4)
                w.put(UInt32(bitPattern: v))
            }
        }
    }

    mutating func row(_ type: PostgresComposite, fields: Int, _ body: (inout Self) -> Void) {
        sized(oids[type]?.type ?? 0) { w in
            w.put(UInt32(fields))
            w.inRow = true
            body(&w)
            w.inRow = false
        }
    }

    mutating func rows(_ type: PostgresComposite, count: Int, _ body: (inout Self) -> Void) {
        sized(oids[type]?.array ?? 0) { w in
            w.arrayHeader(element: w.oids[type]?.type ?? 0, count: count)
            body(&w)
        }
    }

    mutating func null(_ type: PostgresComposite) {
        if inRow { put(oids[type]?.type ?? 0) }
        put(UInt32(bitPattern: -1))
    }

    /// `array_recv`: dimensions (0 when empty), whether any element is NULL (never here), the element
    /// type, then the one dimension's length and lower bound (1).
    private mutating func arrayHeader(element: UInt32, count: Int) {
        put(count == 0 ? 0 : 1)
        put(0)
        put(element)
        guard count > 0 else { return }
        put(UInt32(count))
        put(1)
    }

    /// The bytes of the one value written (without the length every value was given).
    var value: [UInt8] { Array(bytes.dropFirst(4)) }
}

/// SQL text: literals, `ROW(…)::type` and `ARRAY[…]::type[]`, for pgbench (which sends text).
struct PostgresSQLWriter: PostgresValueWriter {
    private(set) var sql = ""
    /// Whether the next value is not the first of its row or array (a comma goes before it).
    private var separate = false

    private mutating func append(_ s: String) {
        if separate { sql += ", " }
        sql += s
        separate = true
    }

    mutating func text(_ value: String?) { append(value.map { "'" + SQLText.literal($0) + "'" } ?? "NULL::text") }
    mutating func int4(_ value: Int32) { append("\(value)") }
    mutating func int8(_ value: Int64) { append("\(value)::bigint") }
    mutating func bool(_ value: Bool) { append(value ? "true" : "false") }
    mutating func ints(_ values: [Int32]) { append("'{" + values.map(String.init).joined(separator: ",") + "}'::int[]") }
    mutating func null(_ type: PostgresComposite) { append("NULL::\(type.rawValue)") }

    mutating func row(_ type: PostgresComposite, fields: Int, _ body: (inout Self) -> Void) {
        append("ROW(")
        separate = false
        body(&self)
        sql += ")::\(type.rawValue)"
        separate = true
    }

    mutating func rows(_ type: PostgresComposite, count: Int, _ body: (inout Self) -> Void) {
        guard count > 0 else { return append("'{}'::\(type.rawValue)[]") }
        append("ARRAY[")
        separate = false
        body(&self)
        sql += "]::\(type.rawValue)[]"
        separate = true
    }
}
