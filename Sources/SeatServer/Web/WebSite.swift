import Foundation
import SeatMap
import SeatHTTP
import SeatInventory

/// The web seat picker's files (HTML, CSS, JavaScript modules), shipped as the SeatServer target's
/// resources and held in memory: a few small files, served with a strong ETag so browsers revalidate
/// cheaply. No build step: what is in `Web/Site` is what the browser runs.
final class WebSite: Sendable {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String
    }
    let files: [String: File]
    /// Where the files were found; nil when they were not (the API still works, `/` answers 503).
    let root: URL?
    /// Every file's security headers: its Content-Security-Policy names this origin and, with a card
    /// form, the card provider's origins (see `securityHeaders(script:frame:connect:)`).
    let securityHeaders: [(String, String)]

    init(root: URL?, cardOrigins: (script: [String], frame: [String], connect: [String]) = ([], [], [])) {
        self.root = root
        securityHeaders = Self.securityHeaders(script: cardOrigins.script, frame: cardOrigins.frame, connect: cardOrigins.connect)
        var files: [String: File] = [:]
        if let root, let names = FileManager.default.enumerator(atPath: root.path) {
            for case let name as String in names {
                let url = root.appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: url.path), !Self.isDirectory(url) else { continue }
                let bytes = [UInt8](data)
                let hash = bytes.withUnsafeBufferPointer { FNV1a.hash($0, into: FNV1a.hash(name)) }
                files[name] = File(bytes: bytes, contentType: Self.contentType(name), etag: "\"\(String(hash, radix: 16))\"")
            }
        }
        self.files = files
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `SEATKIT_WEB_ROOT` (to edit the page without rebuilding), else the resource bundle next to the
    /// executable (what SwiftPM builds and installs), else the sources this file was built from.
    static func locate() -> URL? {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["SEATKIT_WEB_ROOT"] { candidates.append(URL(fileURLWithPath: override)) }
        let bundleName = "SeatKit_SeatServer.resources"
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName).appendingPathComponent("Site"))
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(bundleName).appendingPathComponent("Site"))
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Site"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
    }

    static func contentType(_ name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json": return "application/json"
        default: return "application/octet-stream"
        }
    }

    /// The page's own files may only talk to this origin (no CDN, no inline script), and to a card
    /// provider's when the buyer's page takes cards: Stripe.js from its origin, its card fields in its
    /// frames, its API for the card (the card never reaches this server).
    static func securityHeaders(script: [String] = [], frame: [String] = [], connect: [String] = []) -> [(String, String)] {
        func list(_ extra: [String]) -> String { (["'self'"] + extra).joined(separator: " ") }
        let frames = frame.isEmpty ? "" : "; frame-src " + frame.joined(separator: " ")
        return [
            (
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src \(list(script)); connect-src \(list(connect))\(frames); frame-ancestors 'none'"
            ),
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
        ]
    }

    /// `index.html` for one show's page, its body naming the show's venue (`data-venue`), so the page
    /// asks for the venue's geometry at once instead of after the show (one round trip and a parse
    /// sooner: the cinema's map 0.28 s → 0.2 s in `make bench-web`). A show not known here gets the
    /// plain page, which finds its venue from the show.
    func showPage(venue: String?, _ r: HTTPRequest) throws(Problem) -> HTTPResponse {
        guard let venue, root != nil, let file = files["index.html"] else { return try response("index.html", r) }
        let etag = "\"\(String(FNV1a.hash(venue, into: FNV1a.hash(file.etag)), radix: 16))\""
        let headers = [("ETag", etag), ("Cache-Control", "no-cache")] + securityHeaders
        if r.header("if-none-match").map({ SeatAPI.etagMatches($0, etag) }) == true { return .empty(304, headers: headers) }
        let attribute = "<body data-venue=\"" + Self.escapedAttribute(venue) + "\">"
        let text = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: "<body>", with: attribute)
        return HTTPResponse(status: 200, headers: [("Content-Type", file.contentType)] + headers, body: r.method == "HEAD" ? [] : Array(text.utf8))
    }

    static func escapedAttribute(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    func response(_ name: String, _ r: HTTPRequest) throws(Problem) -> HTTPResponse {
        guard root != nil else {
            throw Problem(
                503, "web-unavailable", "Web page not installed",
                detail: "the picker's files (SeatKit_SeatServer.resources/Site) were not found next to the executable; set SEATKIT_WEB_ROOT")
        }
        guard let file = files[name] else { throw Problem.notFound("no file \(name)") }
        let headers = [("ETag", file.etag), ("Cache-Control", "no-cache")] + securityHeaders
        if r.header("if-none-match").map({ SeatAPI.etagMatches($0, file.etag) }) == true { return .empty(304, headers: headers) }
        return HTTPResponse(status: 200, headers: [("Content-Type", file.contentType)] + headers, body: r.method == "HEAD" ? [] : file.bytes)
    }
}
