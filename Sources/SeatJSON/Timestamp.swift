import Foundation

/// The API's times: RFC 3339 with an offset. Every reader takes what every writer writes — with or
/// without fractions of a second (`2026-12-01T19:30:00+08:00`, `2026-12-01T11:30:00.000Z`); a server
/// that once wrote `….000Z` and refused it when read back had two parsers that disagreed.
public enum Timestamp {
    /// The instant in Unix milliseconds, nil when `text` is not an RFC 3339 time with an offset, or names
    /// a day its month does not have (2026-02-30), or a year outside 1970-9999.
    ///
    /// Read by hand, not by `ISO8601DateFormatter`: Foundation's rolled 2026-02-30 over into 2 March and
    /// read year 0 in the Julian calendar, so a takings report from 0000-01-01 was written back as
    /// "00-1-12-30…". This reader and `text(_:)` share one proleptic Gregorian calendar, so whatever
    /// is read is written back as the same instant.
    /// - Complexity: O(n) in the text's length.
    public static func milliseconds(_ text: String) -> Int64? {
        var p = Digits(Array(text.utf8))
        guard let year = p.number(4), year >= 1970, p.skip(UInt8(ascii: "-")), let month = p.number(2), (1...12).contains(month),
            p.skip(UInt8(ascii: "-")), let day = p.number(2), day >= 1, day <= daysIn(month: month, year: year),
            p.skip(UInt8(ascii: "T")) || p.skip(UInt8(ascii: "t")), let hour = p.number(2), hour < 24, p.skip(UInt8(ascii: ":")),
            let minute = p.number(2), minute < 60, p.skip(UInt8(ascii: ":")), let second = p.number(2), second < 60
        else { return nil }
        var millis: Int64 = 0
        if p.skip(UInt8(ascii: ".")) {
            // Any number of digits (RFC 3339), the first three counted: at least one.
            var count = 0
            while let d = p.digit() {
                if count < 3 { millis = millis * 10 + Int64(d) }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { millis *= 10 }
        }
        var offset: Int64 = 0
        if !(p.skip(UInt8(ascii: "Z")) || p.skip(UInt8(ascii: "z"))) {
            let sign: Int64
            if p.skip(UInt8(ascii: "+")) { sign = 1 } else if p.skip(UInt8(ascii: "-")) { sign = -1 } else { return nil }
            guard let h = p.number(2), h < 24, p.skip(UInt8(ascii: ":")), let m = p.number(2), m < 60 else { return nil }
            offset = sign * (h * 60 + m) * 60_000
        }
        guard p.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return (days * 86_400 + hour * 3600 + minute * 60 + second) * 1000 + millis - offset
    }

    public static func date(_ text: String) -> Date? {
        milliseconds(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// The same UTC date and time a year later (29 February: 1 March), for "at most a year" of a
    /// period whose year may have 365 or 366 days.
    /// - Complexity: O(1).
    public static func oneYearAfter(_ ms: Int64) -> Int64 {
        let (year, month, day, msOfDay) = civil(ms)
        let days =
            month == 2 && day == 29 && daysIn(month: 2, year: year + 1) == 28
            ? daysFromCivil(year: year + 1, month: 3, day: 1) : daysFromCivil(year: year + 1, month: month, day: day)
        return days * 86_400_000 + msOfDay
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The UTC date of `ms` and the milliseconds into its day (Howard Hinnant's algorithm).
    static func civil(_ ms: Int64) -> (year: Int64, month: Int64, day: Int64, msOfDay: Int64) {
        let days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day, ms - days * 86_400_000)
    }

    /// A cursor over ASCII digits and separators.
    private struct Digits {
        let bytes: [UInt8]
        var at = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { at == bytes.count }
        mutating func skip(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }
        mutating func digit() -> Int? {
            guard at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 else { return nil }
            at += 1
            return Int(bytes[at - 1] - 0x30)
        }
        /// Exactly `count` digits.
        mutating func number(_ count: Int) -> Int64? {
            var v: Int64 = 0
            for _ in 0..<count {
                guard let d = digit() else { return nil }
                v = v * 10 + Int64(d)
            }
            return v
        }
    }

    /// An offset as RFC 3339 writes it (`+08:00`, `-05:30`, `Z`), in minutes east of UTC; nil otherwise
    /// or beyond ±23:59.
    /// - Complexity: O(1).
    public static func offsetMinutes(_ text: String) -> Int? {
        if text == "Z" || text == "z" { return 0 }
        let b = Array(text.utf8)
        guard b.count == 6, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[3] == UInt8(ascii: ":") else { return nil }
        var p = Digits(Array(b[1...2]) + Array(b[4...5]))
        guard let h = p.number(2), h < 24, let m = p.number(2), m < 60 else { return nil }
        return (b[0] == UInt8(ascii: "-") ? -1 : 1) * Int(h * 60 + m)
    }

    /// The instant on a clock `offsetMinutes` east of UTC, as a person there reads it:
    /// `2026-12-07T14:33:00+08:00` (milliseconds only when there are some; `Z` for 0).
    /// - Complexity: O(1).
    public static func text(_ ms: Int64, offsetMinutes: Int) -> String {
        let (year, month, day, msOfDay) = civil(ms + Int64(offsetMinutes) * 60_000)
        let secondOfDay = msOfDay / 1000, millis = msOfDay % 1000
        func pad(_ v: Int64, _ width: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, width - s.count)) + s }
        let fraction = millis == 0 ? "" : ".\(pad(millis, 3))"
        let offset =
            offsetMinutes == 0
            ? "Z" : "\(offsetMinutes < 0 ? "-" : "+")\(pad(Int64(abs(offsetMinutes) / 60), 2)):\(pad(Int64(abs(offsetMinutes) % 60), 2))"
        let date = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        return "\(date)T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))\(fraction)\(offset)"
    }

    /// RFC 3339 UTC with milliseconds, computed directly (a date formatter per response costs more than
    /// the rest of a hold).
    /// - Complexity: O(1).
    public static func text(_ ms: Int64) -> String {
        let (year, month, day, msOfDay) = civil(ms)
        let secondOfDay = msOfDay / 1000, millis = msOfDay % 1000
        func pad(_ v: Int64, _ width: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, width - s.count)) + s }
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }
}
