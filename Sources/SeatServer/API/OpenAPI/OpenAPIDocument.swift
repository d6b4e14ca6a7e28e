import SeatJSON
import SeatWire

/// The OpenAPI 3.1 description served at `/openapi.json`, generated from what the server runs: the
/// paths, methods and operations from the route table (`SeatAPI.routes`), the bodies from the SeatWire
/// types' schemas. schemathesis checks the server against it in make test (scripts/contract-test.sh);
/// `OpenAPIContractTests` checks the document itself (every reference resolves, every example
/// conforms, ids are unique) and validates real answers against it.
enum OpenAPIDocument {
    static let json: String = write(routes: SeatAPI.routes).text

    static func write(routes: RouteTable) -> JSONWriter {
        var w = JSONWriter(reservingCapacity: 64 << 10)
        w.raw(#"{"openapi":"3.1.0","info":{"title":"SeatKit seat inventory","version":"1.0.0","#)
        w.raw(#""description":"Atomic seat holds with expiry, confirmation and live events. See docs/API.md."},"#)
        w.raw(#""components":{"securitySchemes":{"adminKey":{"type":"apiKey","in":"header","name":"X-Admin-Key","description":"#)
        w.string(
            "an operator's key: the --admin-key (the manager admin) or one from the --operators file; also accepted as "
                + "Authorization: Bearer. Box-office keys get 403 on manager operations")
        w.raw(#"}},"schemas":{"#)
        for (k, type) in WireContract.components.enumerated() {
            w.key(type.schemaName, first: k == 0)
            type.schema.write(into: &w)
        }
        w.raw(#"},"responses":{"Problem":{"description":"An error","content":{"application/problem+json":{"schema":{"$ref":"#)
        w.string(JSONSchema.componentPrefix + ProblemDocument.schemaName)
        w.raw("}}}}}},")
        w.key("paths", first: true)
        w.raw("{")
        for (k, route) in routes.routes.enumerated() {
            w.key(route.pattern, first: k == 0)
            w.raw("{")
            for (j, h) in route.operations.enumerated() {
                w.key(h.method.lowercased(), first: j == 0)
                write(h.operation, head: h.method == "HEAD", guessed: SeatAPI.capabilityRoutes.contains(route.pattern), into: &w)
            }
            w.raw("}")
        }
        w.raw("}}")
        return w
    }

    /// Statuses every operation may answer with a problem: the dispatcher's 400 (a request it cannot
    /// read) and 414 (a path over 2048 bytes) come before any handler.
    static let everyOperationProblems = [400, 414]

    /// `guessed`: a capability route, which answers 429 to an address that guessed wrong too often.
    private static func write(_ op: APIOperation, head: Bool, guessed: Bool, into w: inout JSONWriter) {
        w.raw("{"); w.key("operationId", first: true); w.string(head ? op.id + "Head" : op.id)
        w.key("summary"); w.string(op.summary)
        if let description = op.description { w.key("description"); w.string(description) }
        switch op.access {
        case .anyone: break
        // The role the operator's key must have (checked before the operation runs: 401, then 403).
        case .role(let role, _):
            w.key("security"); w.raw(#"[{"adminKey":[]}]"#)
            w.key("x-seatkit-role"); w.string(role.rawValue)
        // No key: the order's code is the buyer's credential (a parameter or a member of the body).
        case .operatorKeyOrCode: w.key("security"); w.raw(#"[{"adminKey":[]},{}]"#)
        }
        // A rate each client address is held to before the operation runs (429 past it).
        if op.limit == .holds { w.key("x-seatkit-rate-limit"); w.string("holds") }
        // The scope a retried request's Idempotency-Key is kept in (with the first path parameter).
        if let scope = op.idempotency { w.key("x-seatkit-idempotency"); w.string(scope) }
        if !op.parameters.isEmpty {
            w.key("parameters"); w.raw("[")
            for (k, p) in op.parameters.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("name", first: true); w.string(p.name); w.key("in"); w.string(p.location.rawValue)
                if p.required { w.key("required"); w.raw("true") }
                w.key("schema"); p.schema.write(into: &w)
                if let d = p.description { w.key("description"); w.string(d) }
                if let e = p.example { w.key("example"); w.raw(e) }
                w.raw("}")
            }
            w.raw("]")
        }
        if let body = op.body {
            w.key("requestBody"); w.raw(#"{"required":true,"content":{"#); w.string(body.type); w.raw(#":{"schema":"#)
            body.schema.write(into: &w); w.raw("}}}")
        }
        w.key("responses"); w.raw("{")
        let problems = Set(op.problems + everyOperationProblems + (guessed ? [429] : [])).subtracting(op.answers.map(\.status))
        let statuses = (op.answers.map(\.status) + problems).sorted()
        for (k, status) in statuses.enumerated() {
            w.key(String(status), first: k == 0)
            guard let answer = op.answers.first(where: { $0.status == status }) else {
                w.raw(##"{"$ref":"#/components/responses/Problem"}"##); continue
            }
            write(answer, into: &w)
        }
        w.raw("}}")
    }

    private static func write(_ a: APIOperation.Answer, into w: inout JSONWriter) {
        w.raw("{"); w.key("description", first: true); w.string(a.description)
        if !a.content.isEmpty {
            w.key("content"); w.raw("{")
            for (k, c) in a.content.enumerated() {
                w.key(c.type, first: k == 0); w.raw("{")
                if let s = c.schema { w.key("schema", first: true); s.write(into: &w) }
                w.raw("}")
            }
            w.raw("}")
        }
        if !a.links.isEmpty {
            w.key("links"); w.raw("{")
            for (k, l) in a.links.enumerated() {
                w.key(l.name, first: k == 0); w.raw("{"); w.key("operationId", first: true); w.string(l.operationID)
                w.key("parameters"); w.raw("{"); w.key(l.parameter, first: true); w.string(l.expression); w.raw("}}")
            }
            w.raw("}")
        }
        w.raw("}")
    }
}
