import ArgumentParser
import Foundation
import Logging
import SeatJSON
import SharedState

/// `--log-level` and `--log-format`: how much the server says and in what shape.
struct LogOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("trace, debug, info (a line a request), notice, warning, error or critical.", valueName: "LEVEL"),
        completion: .list(Logger.Level.allCases.map(\.rawValue)),
        transform: { name in
            guard let level = Logger.Level(rawValue: name) else {
                throw ValidationError("--log-level is one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
            }
            return level
        })
    var logLevel: Logger.Level = .info

    @Option(help: ArgumentHelp("text (one readable line each) or json (JSON lines, for a log collector).", valueName: "text|json"))
    var logFormat: LogLineHandler.Format = .text

    /// The server's logger: lines to standard error, so standard output keeps the banner alone.
    func logger() -> Logger {
        let (level, format) = (logLevel, logFormat)
        var logger = Logger(label: "seatkit") { label in LogLineHandler(label: label, format: format, sink: .standardError) }
        logger.logLevel = level
        return logger
    }
}

/// A swift-log handler writing one line a message: `2026-12-03T01:02:03.456Z info request route=… status=201`
/// or the same as one JSON object a line. Keys come in one order (a request's route, method, status and time first, then by name), so lines
/// diff and grep well.
/// Thread-safe: a line is formatted on the caller's thread and written with one `write(2)` under a lock,
/// so lines from the request threads never interleave.
public struct LogLineHandler: LogHandler {
    public enum Format: String, CaseIterable, Sendable, ExpressibleByArgument { case text, json }

    /// Where lines go: a file descriptor, or (for tests) a closure.
    public struct Sink: Sendable {
        let write: @Sendable (String) -> Void
        public static let standardError = Sink { line in
            let bytes = Array(line.utf8)
            writeLock.withLock { _ in _ = bytes.withUnsafeBytes { Foundation.write(2, $0.baseAddress, $0.count) } }
        }
        public static func collecting(into lines: Locked<[String]>) -> Sink { Sink { line in lines.withLock { $0.append(line) } } }
        static let writeLock = Locked<Int>(0)
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: Format
    let sink: Sink

    public init(label: String, format: Format, sink: Sink) {
        self.label = label
        self.format = format
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { if all.isEmpty { all = extra } else { all.merge(extra) { $1 } } }
        sink.write(line(level: event.level, message: "\(event.message)", metadata: all, date: Date()) + "\n")
    }

    /// One line, without its newline.
    func line(level: Logger.Level, message: String, metadata: Logger.Metadata, date: Date) -> String {
        let time = Self.timestamp(date)
        // What a reader scans for first, then the rest by name.
        let leading = Self.leadingKeys.filter { metadata[$0] != nil }
        let keys = leading + metadata.keys.filter { !Self.leadingKeys.contains($0) }.sorted()
        switch format {
        case .text:
            var out = "\(time) \(level.rawValue) \(message)"
            for k in keys { out += " \(k)=\(Self.textValue(metadata[k]!))" }
            return out
        case .json:
            var out = "{\"time\":\(Self.quoted(time)),\"level\":\(Self.quoted(level.rawValue)),\"message\":\(Self.quoted(message))"
            for k in keys where !["time", "level", "message"].contains(k) { out += ",\(Self.quoted(k)):\(Self.jsonValue(metadata[k]!))" }
            return out + "}"
        }
    }

    static let leadingKeys = ["route", "method", "status", "ms", "request", "operator"]

    /// `2026-12-03T01:02:03.456Z`: SeatJSON's `Timestamp.text`, written from the civil date. An
    /// `ISO8601DateFormatter` a line cost ~250 µs of CPU: with a line a request the server did a third of
    /// the holds a second (compare-holds.sh: 1,187 beside 3,356 without the log).
    static func timestamp(_ date: Date) -> String {
        // A microsecond up: an exact millisecond read back from a Double (seconds since 1970) lands up to
        // half a microsecond below it.
        Timestamp.text(Int64((date.timeIntervalSince1970 * 1000 + 1e-3).rounded(.down)))
    }

    /// A value bare when it is one word, quoted otherwise (so `key=value` pairs split on spaces).
    static func textValue(_ v: Logger.Metadata.Value) -> String {
        let s = "\(v)"
        let bare = !s.isEmpty && s.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0.value != 0x7f }
        return bare ? s : quoted(s)
    }

    static func jsonValue(_ v: Logger.Metadata.Value) -> String {
        switch v {
        case .string(let s): return quoted(s)
        case .stringConvertible(let c):
            // Numbers stay numbers for a log collector's sums; anything else is text.
            if c is Int || c is Int64 || c is UInt64 || c is Double { return "\(c)" }
            return quoted("\(c)")
        case .array(let a): return "[" + a.map(jsonValue).joined(separator: ",") + "]"
        case .dictionary(let d): return "{" + d.keys.sorted().map { "\(quoted($0)):\(jsonValue(d[$0]!))" }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (a path a client sent may
    /// hold any), as SeatJSON writes every string.
    static func quoted(_ s: String) -> String { JSONWriter.quoted(s) }
}
