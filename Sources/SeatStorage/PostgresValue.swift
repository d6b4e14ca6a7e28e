import Foundation

/// A value of a PostgreSQL type, composite ones included, in the two forms it is sent in: the binary
/// format (`record_send`, `array_send`: what the instance binds, so the database parses no text) and
/// SQL text (what pgbench sends). A composite or an array of them names its type; its OID, which the
/// binary format carries, is looked up in the database (`PostgresConnection.typeOIDs`).
indirect enum PostgresValue: Sendable, Equatable {
    case text(String?)
    case int4(Int32)
    case int8(Int64)
    case bool(Bool)
    /// An `int[]`.
    case ints([Int32])
    /// A composite of the named type, its fields in the type's order.
    case row(String, [PostgresValue])
    /// A one-dimensional array of the named composite type.
    case rows(String, [PostgresValue])
    /// NULL of the named composite type.
    case null(String)

    /// Built-in types' OIDs (`pg_type`): text 25, int8 20, int4 23, bool 16, int4[] 1007.
    static let builtIn: [String: UInt32] = ["text": 25, "int8": 20, "int4": 23, "bool": 16, "int4[]": 1007]

    /// This value's type: a built-in's name, a composite's, or its array's (`name[]`).
    var typeName: String {
        switch self {
        case .text: "text"
        case .int4: "int4"
        case .int8: "int8"
        case .bool: "bool"
        case .ints: "int4[]"
        case .row(let name, _), .null(let name): name
        case .rows(let name, _): name + "[]"
        }
    }

    /// The binary format of this value (without its length): `oids` has every composite type it names.
    /// - Complexity: O(n) in the value's bytes.
    func binary(_ oids: [String: UInt32]) throws -> [UInt8] {
        var out: [UInt8] = []
        try write(into: &out, oids)
        return out
    }

    private static func put(_ v: UInt32, _ out: inout [UInt8]) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }

    private static func oid(_ name: String, _ oids: [String: UInt32]) throws -> UInt32 {
        guard let oid = builtIn[name] ?? oids[name] else {
            throw PostgresError(sqlState: "42704", message: "type \(name) is not in the database (its migration has not run)")
        }
        return oid
    }

    /// One element or field: its length (-1 for NULL), then its bytes.
    private func writeSized(into out: inout [UInt8], _ oids: [String: UInt32]) throws {
        if case .text(nil) = self { return Self.put(UInt32(bitPattern: -1), &out) }
        if case .null = self { return Self.put(UInt32(bitPattern: -1), &out) }
        let at = out.count
        Self.put(0, &out)
        try write(into: &out, oids)
        let length = UInt32(out.count - at - 4).bigEndian
        withUnsafeBytes(of: length) { for i in 0..<4 { out[at + i] = $0[i] } }
    }

    private func write(into out: inout [UInt8], _ oids: [String: UInt32]) throws {
        switch self {
        case .text(let s): out.append(contentsOf: (s ?? "").utf8)
        case .int4(let v): Self.put(UInt32(bitPattern: v), &out)
        case .int8(let v): withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
        case .bool(let v): out.append(v ? 1 : 0)
        case .null: break
        case .ints(let values):
            try Self.array(element: 23, values.map(PostgresValue.int4), into: &out, oids)
        case .rows(let name, let values):
            try Self.array(element: Self.oid(name, oids), values, into: &out, oids)
        case .row(_, let fields):
            // `record_recv`: the field count, then each field's type, length and bytes.
            Self.put(UInt32(fields.count), &out)
            for field in fields {
                Self.put(try Self.oid(field.typeName, oids), &out)
                try field.writeSized(into: &out, oids)
            }
        }
    }

    /// `array_recv`: dimensions (0 when empty), whether any element is NULL, the element type, the one
    /// dimension's length and lower bound (1), then each element.
    private static func array(element: UInt32, _ values: [PostgresValue], into out: inout [UInt8], _ oids: [String: UInt32]) throws {
        put(values.isEmpty ? 0 : 1, &out)
        put(values.contains { if case .null = $0 { true } else { false } } ? 1 : 0, &out)
        put(element, &out)
        guard !values.isEmpty else { return }
        put(UInt32(values.count), &out)
        put(1, &out)
        for v in values { try v.writeSized(into: &out, oids) }
    }

    /// The value as an SQL expression: literals, `ROW(…)::type` and `ARRAY[…]::type[]`.
    var sql: String {
        switch self {
        case .text(let s): s.map { "'" + SQLText.literal($0) + "'" } ?? "NULL::text"
        case .int4(let v): "\(v)"
        case .int8(let v): "\(v)::bigint"
        case .bool(let v): v ? "true" : "false"
        case .null(let name): "NULL::\(name)"
        case .ints(let values): "'{" + values.map(String.init).joined(separator: ",") + "}'::int[]"
        case .row(let name, let fields): "ROW(" + fields.map(\.sql).joined(separator: ", ") + ")::\(name)"
        case .rows(let name, let values):
            values.isEmpty ? "'{}'::\(name)[]" : "ARRAY[" + values.map(\.sql).joined(separator: ", ") + "]::\(name)[]"
        }
    }
}
