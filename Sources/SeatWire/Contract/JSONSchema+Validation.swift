import Foundation
import SeatJSON

extension JSONSchema {
    /// Where `value` breaks this schema: one line per problem, each naming its path (`parts[0].seats[2].price`),
    /// empty when it conforms. `resolving` finds a referenced component. Used by the tests on every answer
    /// of a real server, so a writer that drifts from its schema fails there, not in a client.
    /// - Complexity: O(size of the value × depth of the schema); a pattern is compiled for each string it
    ///   checks (what is checked is an answer or a request body: tens of patterned strings, not thousands).
    public func validate(_ value: JSONValue, resolving: (String) -> JSONSchema?, at path: String = "") -> [String] {
        var problems: [String] = []
        check(value, resolving, path.isEmpty ? "(body)" : path, &problems)
        return problems
    }

    private func check(_ value: JSONValue, _ resolve: (String) -> JSONSchema?, _ path: String, _ out: inout [String]) {
        if let ref {
            guard let target = resolve(ref) else { out.append("\(path): no component \(ref)"); return }
            target.check(value, resolve, path, &out)
            return
        }
        if !types.isEmpty && !types.contains(where: { Self.has(type: $0, value) }) {
            out.append("\(path): expected \(types.joined(separator: " or ")), got \(value.shortDescription)")
            return
        }
        if let enumeration, !(value.stringValue.map(enumeration.contains) ?? false) {
            out.append("\(path): expected one of \(enumeration.joined(separator: ", ")), got \(value.shortDescription)")
        }
        if let const, value.stringValue != const { out.append("\(path): expected \(JSONWriter.quoted(const)), got \(value.shortDescription)") }
        switch value {
        case .string(let s): checkString(s, path, &out)
        case .number(let n):
            if let minimum, n.double < Double(minimum) { out.append("\(path): below the minimum \(minimum)") }
            if let maximum, n.double > Double(maximum) { out.append("\(path): above the maximum \(maximum)") }
        case .array(let list):
            if let minItems, list.count < minItems { out.append("\(path): fewer than \(minItems) items") }
            if let maxItems, list.count > maxItems { out.append("\(path): more than \(maxItems) items") }
            if uniqueItems, list.indices.contains(where: { k in list[..<k].contains(list[k]) }) { out.append("\(path): an item twice") }
            if let item = items.first { for (k, v) in list.enumerated() { item.check(v, resolve, "\(path)[\(k)]", &out) } }
        case .object(let o): checkObject(o, resolve, path, &out)
        default: break
        }
        if !anyOf.isEmpty && !anyOf.contains(where: { $0.validate(value, resolving: resolve, at: path).isEmpty }) {
            out.append("\(path): matches none of anyOf")
        }
        if !oneOf.isEmpty {
            let matching = oneOf.filter { $0.validate(value, resolving: resolve, at: path).isEmpty }.count
            if matching != 1 { out.append("\(path): matches \(matching) of oneOf, not exactly one") }
        }
        if let negated = not.first, negated.validate(value, resolving: resolve, at: path).isEmpty {
            out.append("\(path): matches what `not` forbids")
        }
    }

    private func checkString(_ s: String, _ path: String, _ out: inout [String]) {
        let length = s.unicodeScalars.count
        if let minLength, length < minLength { out.append("\(path): shorter than \(minLength)") }
        if let maxLength, length > maxLength { out.append("\(path): longer than \(maxLength)") }
        if let pattern {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { out.append("\(path): bad pattern \(pattern)"); return }
            if regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) == nil {
                out.append("\(path): \(JSONWriter.quoted(s)) does not match \(pattern)")
            }
        }
        if format == "date-time" && Timestamp.milliseconds(s) == nil { out.append("\(path): \(JSONWriter.quoted(s)) is not a date-time") }
    }

    private func checkObject(_ o: JSONObject, _ resolve: (String) -> JSONSchema?, _ path: String, _ out: inout [String]) {
        let prefix = path == "(body)" ? "" : "\(path)."
        for name in required where o[name] == nil { out.append("\(prefix)\(name): missing") }
        if let minProperties, o.count < minProperties { out.append("\(path): fewer than \(minProperties) members") }
        if let maxProperties, o.count > maxProperties { out.append("\(path): more than \(maxProperties) members") }
        for (name, v) in zip(o.keys, o.values) {
            if let p = properties.first(where: { $0.name == name }) {
                p.schema.check(v, resolve, prefix + name, &out)
            } else {
                switch additionalProperties {
                case .forbidden: out.append("\(prefix)\(name): not a member of this object")
                case .typed(let s): s.check(v, resolve, prefix + name, &out)
                case nil: break
                }
            }
        }
    }

    private static func has(type: String, _ v: JSONValue) -> Bool {
        switch (type, v) {
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object), ("null", .null), ("number", .number): true
        case ("integer", .number(let n)): n.integer != nil || n.double.rounded() == n.double
        default: false
        }
    }
}
