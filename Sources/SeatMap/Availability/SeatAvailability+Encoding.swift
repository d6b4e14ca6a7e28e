/// The compact text encoding (`docs/formats/availability.md`):
///
///     ska1;<layout fingerprint, 16 hex>;<version>;<seat count>;<runs>
///
/// where runs are `<length><code>` in seat order (length omitted when 1) and codes are `a` available,
/// `h` held, `s` sold, `b` blocked. A 100k-seat hall that is mostly free encodes in a few hundred bytes.
extension SeatAvailability {
    public static let encodingPrefix = "ska1"

    /// - Complexity: O(n).
    public func encoded() -> String {
        var out = "\(Self.encodingPrefix);\(Self.hex(layoutFingerprint));\(version);\(seatCount);"
        var bytes: [UInt8] = []
        var current: UInt8 = 0, run = 0
        func flush() {
            guard run > 0 else { return }
            if run > 1 { bytes.append(contentsOf: String(run).utf8) }
            bytes.append((SeatStatus(rawValue: current) ?? .blocked).code)
        }
        forEachStatus { _, s in
            if s.rawValue == current { run += 1 } else { flush(); current = s.rawValue; run = 1 }
        }
        flush()
        out += String(decoding: bytes, as: UTF8.self)
        return out
    }

    /// Decodes an encoding, checking it belongs to `layout` when one is given.
    /// - Complexity: O(length of the text + n).
    public init(encoded text: String, layout: VenueLayout? = nil) throws(AvailabilityError) {
        var text = text
        let result: Result<SeatAvailability, AvailabilityError> = text.withUTF8 { bytes in
            do throws(AvailabilityError) { return .success(try Self.decode(bytes)) } catch { return .failure(error) }
        }
        let decoded = try result.get()
        if let layout {
            if decoded.layoutFingerprint != layout.fingerprint && decoded.layoutFingerprint != 0 {
                throw .wrongLayout(expected: layout.fingerprintHex, found: Self.hex(decoded.layoutFingerprint))
            }
            if decoded.seatCount != layout.seatCount {
                throw .wrongSeatCount(expected: layout.seatCount, found: decoded.seatCount)
            }
        }
        self = decoded
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    static func decode(_ b: UnsafeBufferPointer<UInt8>) throws(AvailabilityError) -> SeatAvailability {
        var p = 0
        func field(_ name: String) throws(AvailabilityError) -> (Int, Int) {
            let start = p
            while p < b.count && b[p] != UInt8(ascii: ";") { p += 1 }
            guard p < b.count else { throw .malformed(offset: start, reason: "missing \(name) (expected ';')") }
            defer { p += 1 }
            return (start, p)
        }
        let (ps, pe) = try field("prefix")
        guard String(decoding: UnsafeBufferPointer(rebasing: b[ps..<pe]), as: UTF8.self) == encodingPrefix else {
            throw .malformed(offset: 0, reason: "expected prefix \"\(encodingPrefix);\"")
        }
        let (fs, fe) = try field("layout fingerprint")
        guard fe - fs == 16, let fingerprint = UInt64(String(decoding: UnsafeBufferPointer(rebasing: b[fs..<fe]), as: UTF8.self), radix: 16) else {
            throw .malformed(offset: fs, reason: "layout fingerprint must be 16 hex digits")
        }
        let (vs, ve) = try field("version")
        guard let version = UInt64(String(decoding: UnsafeBufferPointer(rebasing: b[vs..<ve]), as: UTF8.self)) else {
            throw .malformed(offset: vs, reason: "version must be a non-negative integer")
        }
        let (cs, ce) = try field("seat count")
        guard let count = Int(String(decoding: UnsafeBufferPointer(rebasing: b[cs..<ce]), as: UTF8.self)),
            count >= 0, count <= 100_000_000
        else {
            throw .malformed(offset: cs, reason: "seat count must be an integer from 0 to 100000000")
        }
        var packed = [UInt8](repeating: 0, count: (count + 1) / 2)
        var counts = StatusCounts()
        var seat = 0
        try packed.withUnsafeMutableBufferPointer { out throws(AvailabilityError) in
            while p < b.count {
                var run = 0
                let runStart = p
                while p < b.count, b[p] >= UInt8(ascii: "0"), b[p] <= UInt8(ascii: "9") {
                    run = run * 10 + Int(b[p] - UInt8(ascii: "0"))
                    if run > count { throw .malformed(offset: runStart, reason: "run longer than the seat count") }
                    p += 1
                }
                if p == runStart { run = 1 } else if run == 0 { throw .malformed(offset: runStart, reason: "run length 0") }
                guard p < b.count else { throw .malformed(offset: p, reason: "run length without a status code") }
                guard let status = SeatStatus(code: b[p]) else {
                    throw .malformed(offset: p, reason: "unknown status code \"\(Character(Unicode.Scalar(b[p])))\" (expected a, h, s or b)")
                }
                p += 1
                guard seat + run <= count else { throw .malformed(offset: runStart, reason: "runs cover more than \(count) seats") }
                counts[status] += run
                let v = status.rawValue
                if v != 0 {
                    var i = seat
                    let end = seat + run
                    // Odd start and end nibbles one by one, whole bytes in between.
                    while i < end && i & 1 == 1 { out[i >> 1] |= v << 4; i += 1 }
                    let both = v | v << 4
                    while i + 1 < end { out[i >> 1] = both; i += 2 }
                    if i < end { out[i >> 1] |= v }
                }
                seat += run
            }
        }
        guard seat == count else { throw .malformed(offset: p, reason: "runs cover \(seat) seats, expected \(count)") }
        return SeatAvailability(packed: packed, seatCount: count, layoutFingerprint: fingerprint, version: version, counts: counts)
    }
}

/// The delta encoding: `skd1;<from>;<to>;<seat><code>,<seat><code>…`, e.g. `skd1;41;42;17h,18h`.
extension AvailabilityDelta {
    public static let encodingPrefix = "skd1"

    public func encoded() -> String { Self.encoded(from: fromVersion, to: toVersion, body: Self.body(changes)) }

    /// The changes alone, what follows `skd1;FROM;TO;` (`17h,18h`): a store makes it once, before it
    /// knows the versions the database gives the change, and numbers it with `encoded(from:to:body:)`.
    /// - Complexity: O(changes).
    public static func body(_ changes: [SeatChange]) -> String {
        var s = ""
        for (k, c) in changes.enumerated() {
            if k > 0 { s += "," }
            s += String(c.seat)
            s.unicodeScalars.append(Unicode.Scalar(c.status.code))
        }
        return s
    }

    /// A delta from its versions and its changes' `body`.
    public static func encoded(from: UInt64, to: UInt64, body: String) -> String { "\(encodingPrefix);\(from);\(to);" + body }

    public init(encoded text: String) throws(AvailabilityError) {
        let parts = text.split(separator: ";", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.encodingPrefix else {
            throw .malformed(offset: 0, reason: "expected \"\(Self.encodingPrefix);from;to;changes\"")
        }
        guard let from = UInt64(parts[1]), let to = UInt64(parts[2]) else {
            throw .malformed(offset: parts[0].utf8.count + 1, reason: "versions must be non-negative integers")
        }
        var changes: [SeatChange] = []
        var offset = parts[0].utf8.count + parts[1].utf8.count + parts[2].utf8.count + 3
        if !parts[3].isEmpty {
            for item in parts[3].split(separator: ",", omittingEmptySubsequences: false) {
                let u = Array(item.utf8)
                guard let last = u.last, let status = SeatStatus(code: last),
                    let seat = Int(String(decoding: u.dropLast(), as: UTF8.self)), seat >= 0
                else {
                    throw .malformed(offset: offset, reason: "expected <seat index><a|h|s|b>, got \"\(item)\"")
                }
                changes.append(SeatChange(seat: seat, status: status))
                offset += u.count + 1
            }
        }
        self.init(fromVersion: from, toVersion: to, changes: changes)
    }
}
