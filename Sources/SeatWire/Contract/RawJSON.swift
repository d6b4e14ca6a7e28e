import SeatJSON

/// A member carried as the JSON text it already is (a show's details, rules and prices are stored as
/// their JSON and written into every show answer and `show` event as they are: parsing and writing them
/// again per answer would cost the listing of a 100-show programme ~300 parses). Its schema is the
/// member's in the owning type.
public struct RawJSON: Sendable, Hashable {
    public var text: String
    public init(_ text: String) { self.text = text }

    init(_ value: JSONValue?) {
        var w = JSONWriter()
        w.value(value ?? .null)
        text = w.text
    }
}
