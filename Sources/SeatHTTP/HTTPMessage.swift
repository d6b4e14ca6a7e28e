import Foundation
import SeatJSON

/// A request as the handlers see it: method, path, query, headers, the whole body.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
    public var body: [UInt8]
    public var clientAddress: String

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String = "127.0.0.1"
    ) {
        self.method = method; self.path = path; self.query = query; self.headers = headers; self.body = body; self.clientAddress = clientAddress
    }

    /// Header lookup, case-insensitive (names are stored lowercased).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A response: status, headers and either a body or an event stream.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Set for Server-Sent Events: the connection stays open and is fed by the stream.
    public var stream: EventStream?
    /// Set when the answer comes later (once a change is committed): the connection is suspended, not
    /// a thread.
    public var deferred: DeferredResponse?

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], stream: EventStream? = nil, deferred: DeferredResponse? = nil) {
        self.status = status; self.headers = headers; self.body = body; self.stream = stream; self.deferred = deferred
    }

    public static func json(_ status: Int, _ writer: JSONWriter, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: writer.bytes)
    }

    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8", headers: [(String, String)] = []) -> HTTPResponse
    {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(text.utf8))
    }

    public static func empty(_ status: Int, headers: [(String, String)] = []) -> HTTPResponse { HTTPResponse(status: status, headers: headers) }
}

/// An RFC 9457 problem: every error the API returns, as `application/problem+json`.
public struct Problem: Error, Sendable {
    public var status: Int
    /// A short slug: the `type` is `/problems/<slug>`.
    public var slug: String
    public var title: String
    public var detail: String
    /// Extra members (`conflicts`, `violations`, …), already JSON.
    public var extensions: [(String, String)]
    public var headers: [(String, String)]

    public init(_ status: Int, _ slug: String, _ title: String, detail: String, extensions: [(String, String)] = [], headers: [(String, String)] = []) {
        self.status = status; self.slug = slug; self.title = title; self.detail = detail; self.extensions = extensions; self.headers = headers
    }

    public var response: HTTPResponse {
        var w = JSONWriter()
        w.raw("{"); w.key("type", first: true); w.string("/problems/\(slug)")
        w.key("title"); w.string(title)
        w.key("status"); w.number(status)
        w.key("detail"); w.string(detail)
        for (k, json) in extensions { w.key(k); w.raw(json) }
        w.raw("}")
        return HTTPResponse(status: status, headers: [("Content-Type", "application/problem+json")] + headers, body: w.bytes)
    }

    public static func badRequest(_ detail: String) -> Problem { Problem(400, "bad-request", "Bad request", detail: detail) }
    public static func notFound(_ detail: String) -> Problem { Problem(404, "not-found", "Not found", detail: detail) }
}
