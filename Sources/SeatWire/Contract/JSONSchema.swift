import SeatJSON

/// A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a value: the shape of one body of the v1 API,
/// written beside the Swift type that reads or writes it. `OpenAPIDocument` collects them into
/// `/openapi.json`; the tests validate every answer a real server gives against them
/// (`validate(_:resolving:)`), so the document, the server and the client read one contract.
///
/// Only the keywords the API uses are modelled; members keep the order they are written in, so the
/// document reads like the type.
public struct JSONSchema: Sendable {
    public struct Property: Sendable {
        public var name: String
        public var schema: JSONSchema
    }

    /// A component this schema points at (`#/components/schemas/<name>`) instead of describing itself.
    public var ref: String?
    /// `type`: one name, or two when a member may also be `null`.
    public var types: [String] = []
    public var format: String?
    public var description: String?
    public var enumeration: [String]?
    /// `const`: the one string allowed.
    public var const: String?
    public var pattern: String?
    public var minLength: Int?
    public var maxLength: Int?
    public var minimum: Int?
    public var maximum: Int?
    /// `items`: none or one schema (an array keeps the struct's storage finite).
    public var items: [JSONSchema] = []
    public var minItems: Int?
    public var maxItems: Int?
    /// `uniqueItems`: no item twice.
    public var uniqueItems = false
    public var properties: [Property] = []
    public var required: [String] = []
    /// `additionalProperties`: nil says nothing, `false` forbids unknown members, a schema types them.
    public var additionalProperties: Additional?
    public var minProperties: Int?
    public var maxProperties: Int?
    public var anyOf: [JSONSchema] = []
    public var oneOf: [JSONSchema] = []
    /// `not`: none or one schema.
    public var not: [JSONSchema] = []
    /// An example body, as JSON text (checked against the schema by the tests).
    public var example: String?

    public indirect enum Additional: Sendable {
        case forbidden
        case typed(JSONSchema)
    }

    public init() {}
}

// MARK: - Building

extension JSONSchema {
    /// A reference to a named component.
    public static func ref(_ name: String) -> JSONSchema { var s = JSONSchema(); s.ref = name; return s }

    /// A reference to the component of a wire type.
    public static func ref<Body: WireBody>(_ type: Body.Type) -> JSONSchema { .ref(Body.schemaName) }

    public static func string(
        pattern: String? = nil, minLength: Int? = nil, maxLength: Int? = nil, format: String? = nil, description: String? = nil
    ) -> JSONSchema {
        var s = JSONSchema()
        s.types = ["string"]; s.format = format; s.pattern = pattern; s.minLength = minLength; s.maxLength = maxLength
        s.description = description
        return s
    }

    public static func integer(minimum: Int? = nil, maximum: Int? = nil, description: String? = nil) -> JSONSchema {
        var s = JSONSchema()
        s.types = ["integer"]; s.minimum = minimum; s.maximum = maximum; s.description = description
        return s
    }

    public static var number: JSONSchema { var s = JSONSchema(); s.types = ["number"]; return s }
    public static var boolean: JSONSchema { var s = JSONSchema(); s.types = ["boolean"]; return s }

    /// One of these strings (`enum`, no `type`: the values say it).
    public static func oneOf(_ values: [String], description: String? = nil) -> JSONSchema {
        var s = JSONSchema(); s.enumeration = values; s.description = description; return s
    }

    public static func array(_ items: JSONSchema? = nil, minItems: Int? = nil, maxItems: Int? = nil, unique: Bool = false) -> JSONSchema {
        var s = JSONSchema()
        s.types = ["array"]; s.minItems = minItems; s.maxItems = maxItems; s.items = items.map { [$0] } ?? []; s.uniqueItems = unique
        return s
    }

    /// An object with these members, in this order; `closed` forbids any other member.
    public static func object(
        _ properties: KeyValuePairs<String, JSONSchema> = [:], required: [String] = [], closed: Bool = false
    ) -> JSONSchema {
        var s = JSONSchema()
        s.types = ["object"]
        s.properties = properties.map { Property(name: $0.key, schema: $0.value) }
        s.required = required
        if closed { s.additionalProperties = .forbidden }
        return s
    }

    /// An object used as a map: any member names, every value of this schema.
    public static func map(_ values: JSONSchema, maxProperties: Int? = nil, minProperties: Int? = nil) -> JSONSchema {
        var s = JSONSchema()
        s.types = ["object"]; s.additionalProperties = .typed(values); s.maxProperties = maxProperties; s.minProperties = minProperties
        return s
    }

    /// A schema with no `type` that only constrains (for `anyOf`/`oneOf`/`not` branches).
    public static func constraint(_ properties: KeyValuePairs<String, JSONSchema> = [:], required: [String] = []) -> JSONSchema {
        var s = JSONSchema()
        s.required = required
        s.properties = properties.map { Property(name: $0.key, schema: $0.value) }
        return s
    }

    /// The same schema, also allowing `null`.
    public var orNull: JSONSchema { var s = self; s.types.append("null"); return s }

    public func described(_ text: String) -> JSONSchema { var s = self; s.description = text; return s }

    public func example(_ json: String) -> JSONSchema { var s = self; s.example = json; return s }

    /// Any other change, for the keywords without a builder.
    public func with(_ change: (inout JSONSchema) -> Void) -> JSONSchema { var s = self; change(&s); return s }
}
