import SeatJSON

/// A body of the v1 API: a named component of the OpenAPI document, described once, here.
public protocol WireBody: Sendable {
    /// The component's name in `#/components/schemas/`.
    static var schemaName: String { get }
    static var schema: JSONSchema { get }
}

/// A body that writes itself as JSON (every answer type; the server sends what this writes).
public protocol WireWritable: Sendable {
    func write(into w: inout JSONWriter)
}

extension WireWritable {
    /// The body as JSON bytes.
    public var jsonBytes: [UInt8] { var w = JSONWriter(); write(into: &w); return w.bytes }
}

/// A list of bodies: a JSON array.
extension Array: WireWritable where Element: WireWritable {
    public func write(into w: inout JSONWriter) {
        w.raw("[")
        for (k, item) in enumerated() { if k > 0 { w.raw(",") }; item.write(into: &w) }
        w.raw("]")
    }
}
