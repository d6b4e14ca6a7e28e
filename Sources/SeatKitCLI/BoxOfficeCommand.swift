import ArgumentParser
import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap

/// What a box office scripts against a running server: `seatkit report` (a show's report, or its CSV)
/// and `seatkit block` (block seats or keep house seats). The operator's key comes from
/// `SEATKIT_OPERATOR_KEY` or `--key-file`, never the command line (where `ps` would show it).
enum BoxOfficeCommand {
    struct Server {
        var url: String
        var host: String
        var port: UInt16
        var key: String

        init(_ url: String, keyFile: String?) throws {
            self.url = url
            guard let u = URL(string: url), u.scheme == "http", let h = u.host else {
                throw UsageError(message: "--server is a URL like http://127.0.0.1:8080 (http, an IPv4 address or localhost)")
            }
            host = h
            port = UInt16(u.port ?? 80)
            if let file = keyFile {
                key = String(decoding: try Files.read(file), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } else if let k = ProcessInfo.processInfo.environment["SEATKIT_OPERATOR_KEY"], !k.isEmpty {
                key = k
            } else {
                throw UsageError(message: "give the operator's key in SEATKIT_OPERATOR_KEY or --key-file FILE (not on the command line)")
            }
        }

        func request(_ method: String, _ path: String, json: String? = nil, accept: String? = nil) throws -> HTTPConnection.Response {
            var headers = [("Authorization", "Bearer \(key)")]
            if let accept { headers.append(("Accept", accept)) }
            do {
                let c = try HTTPConnection(host: host, port: port)
                return try json.map { try c.request(method, path, json: $0, headers: headers) } ?? c.request(method, path, headers: headers)
            } catch { throw IOFailure(message: "cannot reach \(url): \(error)") }
        }
    }

    /// The server's problem as one line: its detail (or the status).
    static func failure(_ r: HTTPConnection.Response) -> InputFailure {
        let detail = (try? JSONParser.parse(r.body))?.objectValue?["detail"]?.stringValue
        return InputFailure(message: "the server answered \(r.status): \(detail ?? String(decoding: r.body.prefix(300), as: UTF8.self))")
    }

    static func report(show: String, csv: Bool, server: Server, _ output: inout CommandOutput) throws -> Int32 {
        let r = try server.request("GET", "/v1/shows/\(show)/report", accept: csv ? "text/csv" : nil)
        guard r.status == 200 else { throw failure(r) }
        if csv { output.out += r.text; return ExitCode.success }
        guard let o = (try? JSONParser.parse(r.body))?.objectValue, let revenue = o["revenue"]?.objectValue else {
            throw InputFailure(message: "the server's report is not the JSON expected")
        }
        func counts(_ v: JSONValue?) -> String {
            ["available", "held", "sold", "blocked"].map { "\($0) \(v?.objectValue?[$0]?.intValue ?? 0)" }.joined(separator: ", ")
        }
        func split(_ name: String) -> String {
            let parts = revenue[name]?.objectValue
            return (parts?.keys ?? []).sorted().map { "\($0) \(parts?[$0]?.stringValue ?? "")" }.joined(separator: ", ")
        }
        let currency = revenue["currency"]?.stringValue ?? ""
        output.line("show \(show) at version \(o["version"]?.intValue ?? 0): \(o["seats"]?.intValue ?? 0) seats")
        output.line("  \(counts(o["byStatus"]))")
        for z in o["zones"]?.arrayValue ?? [] {
            output.line(
                "  zone \(z.objectValue?["zone"]?.stringValue ?? "") (\(z.objectValue?["category"]?.stringValue ?? "")): \(counts(z.objectValue?["byStatus"]))")
        }
        output.line(
            "revenue \(currency) \(revenue["net"]?.stringValue ?? "") net (\(revenue["gross"]?.stringValue ?? "") sold, \(revenue["refunded"]?.stringValue ?? "") refunded), \(o["orders"]?.intValue ?? 0) orders"
        )
        output.line("  by category: \(split("byCategory"))")
        output.line("  by channel: \(split("byChannel"))")
        output.line("  by payment: \(split("byPayment"))")
        return ExitCode.success
    }

    static func block(_ command: BlockCommand, _ output: inout CommandOutput) throws -> Int32 {
        let server = try command.operatorTarget.server()
        let show = command.operatorTarget.target.show
        let seats = command.seats.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !seats.isEmpty else { throw UsageError(message: "--seats names at least one seat id (comma-separated)") }
        let reason = command.reason
        let kind = command.house ? "house" : "blocked"
        var body =
            "{\"kind\":\"\(kind)\",\"seats\":[" + seats.map { JSONWriter.quoted($0) }.joined(separator: ",") + "],\"reason\":" + JSONWriter.quoted(reason)
        if let at = command.releaseAt { body += ",\"releaseAt\":" + JSONWriter.quoted(at) }
        body += "}"
        let r = try server.request("POST", "/v1/shows/\(show)/reservations", json: body)
        guard r.status == 201, let o = (try? JSONParser.parse(r.body))?.objectValue else { throw failure(r) }
        let release = o["releaseAt"]?.stringValue.map { ", back on sale at \($0)" } ?? ""
        output.line(
            "\(kind == "house" ? "kept for the house" : "blocked"): \(seats.joined(separator: ", ")) as \(o["id"]?.stringValue ?? "?") (version \(o["version"]?.intValue ?? 0))\(release)"
        )
        return ExitCode.success
    }
}

/// A running server, one of its shows, and the operator's key file (the key may come from the environment).
struct OperatorTarget: ParsableArguments {
    static let keyHelp = "The operator's key: SEATKIT_OPERATOR_KEY or --key-file (never the command line, where ps shows it)."

    @OptionGroup var target: ServerTarget

    @Option(help: "A file holding the operator's key.", completion: .file())
    var keyFile: String?

    func server() throws -> BoxOfficeCommand.Server { try BoxOfficeCommand.Server(target.server, keyFile: keyFile) }
}

/// `seatkit report --server URL --show ID [--csv]`.
struct ReportCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "A show's report from a running server: seats by status and zone, revenue by category, channel and payment.",
        discussion: OperatorTarget.keyHelp)

    @OptionGroup var operatorTarget: OperatorTarget

    @Flag(help: "The report as CSV, as the server writes it.")
    var csv = false

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        try BoxOfficeCommand.report(
            show: operatorTarget.target.show, csv: csv, server: try operatorTarget.server(), &output)
    }
}

/// `seatkit block --server URL --show ID --seats IDS --reason TEXT [--house] [--release-at TIME]`.
struct BlockCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "block",
        abstract: "Block seats, or keep them for the house, on a running server.",
        discussion: OperatorTarget.keyHelp)

    @OptionGroup var operatorTarget: OperatorTarget

    @Option(help: ArgumentHelp("The seat ids, comma-separated.", valueName: "IDS"))
    var seats: String

    @Option(help: "Why (the audit log and the console show it).")
    var reason: String

    @Flag(help: "Keep the seats for the house (guests, press) rather than block them.")
    var house = false

    @Option(help: ArgumentHelp("When house seats go back on sale: an ISO time or \"30 minutes before start\".", valueName: "TIME"))
    var releaseAt: String?

    func execute(_ output: inout CommandOutput) throws -> Int32 { try BoxOfficeCommand.block(self, &output) }
}
