import Foundation

/// A one-dimensional PostgreSQL array of text, bigint, integer or boolean, sent in the binary format
/// (`array_recv`: a header, then each element's length and bytes, integers big-endian), or written as
/// the text literal `array_in` reads (for pgbench, which sends text). Binary arrays cost the database
/// no parsing: the batch as jsonb was parsed (11 % of its CPU a hold + release), then searched key by
/// key in every statement that read it.
struct PostgresArray: Sendable, Equatable {
    enum Elements: Sendable, Equatable {
        case text([String?])
        case bigint([Int64])
        case integer([Int32])
        case boolean([Bool])
    }

    var elements: Elements

    static func text(_ values: [String?]) -> PostgresArray { PostgresArray(elements: .text(values)) }
    static func bigint(_ values: [Int64]) -> PostgresArray { PostgresArray(elements: .bigint(values)) }
    static func integer(_ values: [Int32]) -> PostgresArray { PostgresArray(elements: .integer(values)) }
    static func boolean(_ values: [Bool]) -> PostgresArray { PostgresArray(elements: .boolean(values)) }

    var count: Int {
        switch elements {
        case .text(let v): v.count
        case .bigint(let v): v.count
        case .integer(let v): v.count
        case .boolean(let v): v.count
        }
    }

    /// The element type's OID (`pg_type`): text 25, int8 20, int4 23, bool 16.
    var elementType: UInt32 {
        switch elements {
        case .text: 25
        case .bigint: 20
        case .integer: 23
        case .boolean: 16
        }
    }

    /// The binary format: dimensions, whether any element is NULL, the element type, the length and
    /// lower bound (1) of the one dimension (none for an empty array), then each element.
    /// - Complexity: O(n) in the elements' bytes.
    var binary: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(20 + count * 12)
        func put(_ v: UInt32) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }
        let hasNull: Bool
        if case .text(let v) = elements { hasNull = v.contains(nil) } else { hasNull = false }
        put(count == 0 ? 0 : 1)
        put(hasNull ? 1 : 0)
        put(elementType)
        guard count > 0 else { return out }
        put(UInt32(count))
        put(1)
        switch elements {
        case .text(let values):
            for value in values {
                guard let value else {
                    put(UInt32(bitPattern: -1))
                    continue
                }
                put(UInt32(value.utf8.count))
                out.append(contentsOf: value.utf8)
            }
        case .bigint(let values):
            for v in values {
                put(8)
                withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
            }
        case .integer(let values):
            for v in values {
                put(4)
                withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
            }
        case .boolean(let values):
            for v in values {
                put(1)
                out.append(v ? 1 : 0)
            }
        }
        return out
    }

    /// The text literal (`{"a","b",NULL}`), each text element quoted with `"` and `\` escaped.
    var literal: String {
        let items: [String]
        switch elements {
        case .text(let values):
            items = values.map { v in
                guard let v else { return "NULL" }
                return SQLText.arrayElement(v)
            }
        case .bigint(let values): items = values.map(String.init)
        case .integer(let values): items = values.map(String.init)
        case .boolean(let values): items = values.map { $0 ? "t" : "f" }
        }
        return "{" + items.joined(separator: ",") + "}"
    }
}
