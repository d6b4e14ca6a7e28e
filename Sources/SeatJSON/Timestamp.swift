import Foundation

/// The API's times: RFC 3339 with an offset. Every reader takes what every writer writes — with or
/// without fractions of a second (`2026-12-01T19:30:00+08:00`, `2026-12-01T11:30:00.000Z`); a server
/// that once wrote `….000Z` and refused it when read back had two parsers that disagreed.
public enum Timestamp {
    /// The instant in Unix milliseconds, nil when `text` is not an RFC 3339 time with an offset.
    public static func milliseconds(_ text: String) -> Int64? {
        date(text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    public static func date(_ text: String) -> Date? {
        // A formatter a call: ISO8601DateFormatter is a class whose sharing across threads is not promised.
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }

    /// RFC 3339 UTC with milliseconds, computed directly (a date formatter per response costs more than
    /// the rest of a hold).
    /// - Complexity: O(1).
    public static func text(_ ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let millis = ms - seconds * 1000
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        // Days to civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ v: Int64, _ width: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, width - s.count)) + s }
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }
}
