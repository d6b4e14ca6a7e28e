import SeatSecrets

/// What lets an admitted buyer hold seats while a show's waiting room is on: signed by the server
/// (HMAC-SHA-256 under its queue key), bound to the show, the entry and an expiry, so any instance checks
/// it without a store read. `sa1.<show>.<entry>.<expires ms>.<code hex>`.
public struct Admission: Sendable, Hashable {
    public var showID: String
    public var entryID: String
    /// Unix milliseconds.
    public var expiresAt: Int64

    public init(showID: String, entryID: String, expiresAt: Int64) { self.showID = showID; self.entryID = entryID; self.expiresAt = expiresAt }

    /// Why an admission is not accepted, each a sentence the buyer's problem carries.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// No `Seat-Admission` header at all.
        case missing
        case malformed
        case forged
        case expired(at: Int64)
        case otherShow(String)

        public var description: String {
            switch self {
            case .missing: "the show's waiting room is on: join it, and hold with the admission it gives (the Seat-Admission header)"
            case .malformed: "the Seat-Admission header is not an admission"
            case .forged: "the admission's signature is not this server's"
            case .expired: "the admission has expired: join the queue again"
            case .otherShow(let show): "the admission is for show \(show)"
            }
        }
    }

    static let prefix = "sa1"

    private var signed: String { "\(Self.prefix).\(showID).\(entryID).\(expiresAt)" }

    /// The admission as the header carries it.
    public func token(key: [UInt8]) -> String {
        signed + "." + SHA256.hex(HMACSHA256.code(key: key, message: Array(signed.utf8)))
    }

    /// The admission `token` carries, when it is this server's, for `show`, and not expired at `now`.
    /// Show ids and entry ids hold no `.` (ids are letters, digits, `-` and `_` … and entries hex), so the
    /// token splits into exactly five parts.
    public static func verify(_ token: String, show: String, now: Int64, key: [UInt8]) -> Result<Admission, Problem> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == prefix, let expires = Int64(parts[3]), parts[4].utf8.count == 64,
            let code = bytes(hex: parts[4])
        else { return .failure(.malformed) }
        let admission = Admission(showID: parts[1], entryID: parts[2], expiresAt: expires)
        guard HMACSHA256.verify(code, key: key, message: Array(admission.signed.utf8)) else { return .failure(.forged) }
        guard admission.showID == show else { return .failure(.otherShow(admission.showID)) }
        guard now < expires else { return .failure(.expired(at: expires)) }
        return .success(admission)
    }

    static func bytes(hex: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        var high: UInt8?
        for c in hex.utf8 {
            let v: UInt8
            switch c {
            case 48...57: v = c - 48
            case 97...102: v = c - 87
            default: return nil
            }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        return high == nil ? out : nil
    }
}
