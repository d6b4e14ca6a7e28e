import CZlib
import Foundation

/// gzip for the big, cacheable answers (a 20k arena's seat map is 8 MB of SVG, its layout 2 MB of
/// JSON; both shrink about tenfold), compressed once and kept, sent to clients that accept it.
public enum Gzip {
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var length = 0
        let out = bytes.withUnsafeBufferPointer { seatkit_gzip($0.baseAddress, $0.count, level, &length) }
        guard let out else { return nil }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// The bytes of a gzip stream, at most `maximumBytes` of them (nil: not gzip, or too large).
    public static func decompress(_ bytes: [UInt8], maximumBytes: Int = 1 << 28) -> [UInt8]? {
        var length = 0
        let out = bytes.withUnsafeBufferPointer { seatkit_gunzip($0.baseAddress, $0.count, maximumBytes, &length) }
        guard let out else { return nil }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// Whether an `Accept-Encoding` header takes gzip: `gzip` (or `x-gzip`, or `*`) with a q-value above 0.
    public static func accepted(by header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?, any: Double?
        for item in header.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if name == "gzip" || name == "x-gzip" { gzip = q } else if name == "*" { any = q }
        }
        return (gzip ?? any ?? 0) > 0
    }
}

/// A cacheable answer kept in both forms.
public struct Representations: Sendable {
    public let plain: [UInt8]
    public let gzipped: [UInt8]?

    public init(_ plain: [UInt8]) {
        self.plain = plain
        // Small bodies are not worth it; a failed compression just sends the plain form.
        gzipped = plain.count >= 1024 ? Gzip.compress(plain) : nil
    }

    /// The body for `request`, its headers (`Content-Encoding`, `Vary`) and the ETag for that form
    /// (a strong validator differs between encodings: `"x"` and `"x-gz"`).
    public func answer(for request: HTTPRequest, etag: String) -> (body: [UInt8], headers: [(String, String)]) {
        answer(gzip: Gzip.accepted(by: request.header("accept-encoding")), etag: etag)
    }

    public func answer(gzip: Bool, etag: String) -> (body: [UInt8], headers: [(String, String)]) {
        if let gzipped, gzip {
            return (gzipped, [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding"), ("ETag", Self.gzipETag(etag))])
        }
        return (plain, [("Vary", "Accept-Encoding"), ("ETag", etag)])
    }

    public var byteCount: Int { plain.count + (gzipped?.count ?? 0) }

    public static func gzipETag(_ etag: String) -> String { etag.hasSuffix("\"") ? String(etag.dropLast()) + "-gz\"" : etag + "-gz" }
}
