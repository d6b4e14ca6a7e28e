/// A body of the v1 API: a named component of the OpenAPI document, described once, here.
public protocol WireBody: Sendable {
    /// The component's name in `#/components/schemas/`.
    static var schemaName: String { get }
    static var schema: JSONSchema { get }
}
