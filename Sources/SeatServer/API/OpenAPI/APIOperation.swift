import SeatSecrets
import SeatWire

/// What the OpenAPI document says about one method of one route: written beside the route in the
/// table (`SeatAPI.routes`), its bodies named by their SeatWire types, so the document is generated
/// from what the server runs (`OpenAPIDocument`).
struct APIOperation: Sendable {
    /// `role`: an operator whose role may do the action (named in a 403), checked by the dispatcher
    /// before the handler runs (`Route.Call.signedIn`); `operatorKeyOrCode`: an operator's key, or the
    /// order's code (`?code=` or the body's `code`) for the buyer's own order, checked by the handler.
    enum Access: Sendable {
        case anyone
        case role(OperatorRole, String)
        case operatorKeyOrCode
    }

    struct Parameter: Sendable {
        enum Location: String, Sendable { case path, query, header }
        var name: String
        var location: Location
        var required: Bool
        var schema: JSONSchema
        var description: String?
        /// JSON text.
        var example: String?
    }

    struct Link: Sendable {
        var name: String
        var operationID: String
        var parameter: String
        /// A runtime expression such as `$response.body#/token`.
        var expression: String
    }

    struct Answer: Sendable {
        var status: Int
        var description: String
        /// Media types and their schemas (nil: any body of that type).
        var content: [(type: String, schema: JSONSchema?)]
        var links: [Link] = []
    }

    /// A rate the dispatcher holds each client address to before the handler runs (a 429 from the
    /// tarpit past it): `holds`, the server's `--holds-per-second` (one buyer cannot take a hall).
    enum Limit: Sendable { case holds }

    var id: String
    /// The scope a retried request's `Idempotency-Key` is kept in, completed by the first path
    /// parameter (`hold` → `hold:{id}`): the dispatcher reads and checks the key (400 when malformed)
    /// and gives the handler the claim (`Route.Call.idempotency`); the header is declared with it.
    var idempotency: String?
    var summary: String
    var description: String?
    var access: Access = .anyone
    var limit: Limit?
    var parameters: [Parameter] = []
    var body: (type: String, schema: JSONSchema)?
    var answers: [Answer]
    /// Statuses answered with a problem document (400 and 414 are added to every operation: the
    /// dispatcher answers them before any handler runs).
    var problems: [Int] = []

    init(
        _ id: String, _ summary: String, description: String? = nil, access: Access = .anyone, limit: Limit? = nil, idempotency: String? = nil,
        parameters: [Parameter] = [],
        body: JSONSchema? = nil, bodyType: String = "application/json", answers: [Answer], problems: [Int] = []
    ) {
        self.id = id; self.summary = summary; self.description = description; self.access = access; self.limit = limit
        self.idempotency = idempotency
        // The key's header after the path's parameters, where every idempotent operation named it.
        self.parameters =
            idempotency == nil ? parameters : parameters.filter { $0.location == .path } + [.idempotencyKey] + parameters.filter { $0.location != .path }
        self.body = body.map { (bodyType, $0) }; self.answers = answers; self.problems = problems
    }
}

extension APIOperation.Answer {
    static func json(_ status: Int, _ description: String, _ schema: JSONSchema, links: [APIOperation.Link] = []) -> Self {
        .init(status: status, description: description, content: [("application/json", schema)], links: links)
    }

    static func json<Body: WireBody>(_ status: Int, _ description: String, _ type: Body.Type, links: [APIOperation.Link] = []) -> Self {
        .json(status, description, .ref(type), links: links)
    }

    /// A body of a media type the document does not describe further.
    static func media(_ status: Int, _ description: String, _ types: String...) -> Self {
        .init(status: status, description: description, content: types.map { ($0, nil) })
    }

    static func empty(_ status: Int, _ description: String) -> Self { .init(status: status, description: description, content: []) }

    /// A problem document with its own description (the others share the component response).
    static func problem(_ status: Int, _ description: String) -> Self {
        .init(status: status, description: description, content: [("application/problem+json", .ref(ProblemDocument.self))])
    }
}

extension APIOperation.Parameter {
    static func path(_ name: String, _ schema: JSONSchema, example: String? = nil) -> Self {
        .init(name: name, location: .path, required: true, schema: schema, example: example)
    }

    static func query(_ name: String, _ schema: JSONSchema, required: Bool = false, description: String? = nil, example: String? = nil) -> Self {
        .init(name: name, location: .query, required: required, schema: schema, description: description, example: example)
    }

    static func header(_ name: String, _ schema: JSONSchema, description: String? = nil) -> Self {
        .init(name: name, location: .header, required: false, schema: schema, description: description)
    }
}
