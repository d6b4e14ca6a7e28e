import SeatJSON

/// `GET /v1/operators/me`: who a key is and what their role may do (the console's sign-in).
public struct OperatorIdentity: Sendable, Hashable {
    public var name: String
    /// `door`, `boxoffice`, `manager` or `checkout`.
    public var role: String
    /// What the role may do: the door `scan`; the box office also `block`, `keep`, `sell`, `refund`, `reports`; managers also
    /// `prices`, `shows`, `venues`.
    public var may: [String]
    /// The cinemas they act for: every one (head office) or some.
    public var cinemas: CinemaScope

    public init(name: String, role: String, may: [String], cinemas: CinemaScope = .all) {
        self.name = name; self.role = role; self.may = may; self.cinemas = cinemas
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("role"); w.string(role)
        w.key("may"); w.strings(may); w.key("cinemas"); cinemas.write(into: &w); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let cinemas: CinemaScope = o["cinemas"]?.stringValue == "all" ? .all : .some(o.texts("cinemas"))
        self.init(name: o.text("name"), role: o.text("role"), may: o.texts("may"), cinemas: cinemas)
    }
}

extension OperatorIdentity: WireBody, WireWritable {
    public static let schemaName = "Operator"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(),
            "role": .oneOf(["door", "boxoffice", "manager", "checkout"]),
            "may": .array(.oneOf(["scan", "block", "keep", "sell", "refund", "reports", "prices", "shows", "venues", "staff"])),
            "cinemas": CinemaScope.schema,
        ], required: ["name", "role", "may", "cinemas"])
}
