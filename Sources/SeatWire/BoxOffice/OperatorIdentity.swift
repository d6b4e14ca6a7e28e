import SeatJSON

/// `GET /v1/operators/me`: who a key is and what their role may do (the console's sign-in).
public struct OperatorIdentity: Sendable, Hashable {
    public var name: String
    /// `boxoffice` or `manager`.
    public var role: String
    /// What the role may do: the door `scan`; the box office also `block`, `keep`, `sell`, `refund`, `reports`; managers also
    /// `prices`, `shows`, `venues`.
    public var may: [String]

    public init(name: String, role: String, may: [String]) { self.name = name; self.role = role; self.may = may }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("role"); w.string(role)
        w.key("may"); w.strings(may); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(name: o.text("name"), role: o.text("role"), may: o.texts("may"))
    }
}

extension OperatorIdentity: WireBody, WireWritable {
    public static let schemaName = "Operator"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(),
            "role": .oneOf(["door", "boxoffice", "manager"]),
            "may": .array(.oneOf(["scan", "block", "keep", "sell", "refund", "reports", "prices", "shows", "venues"])),
        ], required: ["name", "role", "may"])
}
