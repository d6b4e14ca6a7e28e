import SeatJSON

extension JSONSchema {
    /// Where components live in the OpenAPI document.
    public static let componentPrefix = "#/components/schemas/"

    /// The schema as JSON (one object, members in a fixed order: reference, type, constraints, members).
    /// - Complexity: O(size of the schema).
    public func write(into w: inout JSONWriter) {
        var first = true
        func key(_ name: String) { w.key(name, first: first); first = false }
        func schemas(_ list: [JSONSchema]) {
            w.raw("[")
            for (k, s) in list.enumerated() { if k > 0 { w.raw(",") }; s.write(into: &w) }
            w.raw("]")
        }
        w.raw("{")
        if let ref { key("$ref"); w.string(Self.componentPrefix + ref) }
        if types.count == 1 { key("type"); w.string(types[0]) } else if !types.isEmpty { key("type"); w.strings(types) }
        if let format { key("format"); w.string(format) }
        if let enumeration { key("enum"); w.strings(enumeration) }
        if let const { key("const"); w.string(const) }
        if let pattern { key("pattern"); w.string(pattern) }
        for (name, value) in [
            ("minLength", minLength), ("maxLength", maxLength), ("minimum", minimum), ("maximum", maximum), ("minItems", minItems),
            ("maxItems", maxItems), ("minProperties", minProperties), ("maxProperties", maxProperties),
        ] {
            if let value { key(name); w.number(value) }
        }
        if uniqueItems { key("uniqueItems"); w.raw("true") }
        if let description { key("description"); w.string(description) }
        if !required.isEmpty { key("required"); w.strings(required) }
        switch additionalProperties {
        case .forbidden: key("additionalProperties"); w.raw("false")
        case .typed(let s): key("additionalProperties"); s.write(into: &w)
        case nil: break
        }
        if !properties.isEmpty {
            key("properties"); w.raw("{")
            for (k, p) in properties.enumerated() { w.key(p.name, first: k == 0); p.schema.write(into: &w) }
            w.raw("}")
        }
        if let item = items.first { key("items"); item.write(into: &w) }
        if !anyOf.isEmpty { key("anyOf"); schemas(anyOf) }
        if !oneOf.isEmpty { key("oneOf"); schemas(oneOf) }
        if let negated = not.first { key("not"); negated.write(into: &w) }
        if let example { key("example"); w.raw(example) }
        w.raw("}")
    }

    /// The names of the components this schema points at, itself included (for the document's check
    /// that every reference resolves).
    public var references: Set<String> {
        var out: Set<String> = ref.map { [$0] } ?? []
        for s in items + anyOf + oneOf + not + properties.map(\.schema) { out.formUnion(s.references) }
        if case .typed(let s) = additionalProperties { out.formUnion(s.references) }
        return out
    }
}
