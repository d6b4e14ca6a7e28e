/// A chain's cinema (#56): a name and the venues it runs. Operators are scoped to cinemas; a show
/// belongs to the cinema of its venue.
public struct CinemaRecord: Sendable, Hashable {
    /// `c_…`, made by the server.
    public var id: String
    public var name: String
    /// The venues' ids, in the order given. A venue is in at most one cinema.
    public var venues: [String]
    /// Orders changes of one cinema: the newest wins (Unix milliseconds of the change, then +1 on a tie).
    public var revision: Int64
    /// Unix milliseconds.
    public var createdAt: Int64

    public init(id: String, name: String, venues: [String], revision: Int64, createdAt: Int64) {
        self.id = id; self.name = name; self.venues = venues; self.revision = revision; self.createdAt = createdAt
    }
}

/// An operator kept in the store: a name, a role, the cinemas they act for and their key's digest
/// (never the key: it is shown once, when made or reset).
public struct StaffRecord: Sendable, Hashable {
    public enum State: String, Sendable, CaseIterable {
        /// Signs in and acts.
        case active
        /// Kept, but the key opens nothing until enabled again.
        case disabled
        /// Removed: the row stays (the logs name them), without a key.
        case deleted
    }

    public var name: String
    /// An `OperatorRole`'s name (`door`, `boxoffice`, `manager`, `checkout`).
    public var role: String
    /// nil: every cinema (head office); else the cinemas' ids.
    public var cinemas: [String]?
    /// `sha256:HEX` of the key; nil once deleted.
    public var keyDigest: String?
    public var state: State
    /// Orders changes of one operator across instances and shards: the newest wins.
    public var revision: Int64
    public var createdAt: Int64
    /// Who made the last change (`import` for a line of the operators file).
    public var changedBy: String
    /// The scrypt digest of their console password (`PasswordDigest`); nil: they sign in by key only.
    public var passwordDigest: String?
    /// Their one-time-code (TOTP) secret sealed with the server's key; nil: no second factor.
    public var totpSealed: String?

    public init(
        name: String, role: String, cinemas: [String]?, keyDigest: String?, state: State, revision: Int64, createdAt: Int64, changedBy: String,
        passwordDigest: String? = nil, totpSealed: String? = nil
    ) {
        self.name = name; self.role = role; self.cinemas = cinemas; self.keyDigest = keyDigest; self.state = state
        self.revision = revision; self.createdAt = createdAt; self.changedBy = changedBy
        self.passwordDigest = passwordDigest; self.totpSealed = totpSealed
    }
}

/// A console sign-in: the digest of the cookie's token (the token itself is never kept), whose it is,
/// the token that proves a form came from the console (CSRF), and when it ends.
public struct StaffSession: Sendable, Hashable {
    public var digest: String
    public var name: String
    public var csrf: String
    public var createdAt: Int64
    public var expiresAt: Int64

    public init(digest: String, name: String, csrf: String, createdAt: Int64, expiresAt: Int64) {
        self.digest = digest; self.name = name; self.csrf = csrf; self.createdAt = createdAt; self.expiresAt = expiresAt
    }
}

/// A change to staff or cinemas, as the staff log keeps it.
public struct StaffLogLine: Sendable, Hashable {
    /// Unix milliseconds.
    public var at: Int64
    /// Who made it.
    public var operatorName: String
    /// `operator-created`, `operator-changed`, `key-reset`, `operator-disabled`, `operator-deleted`,
    /// `operator-imported`, `cinema-created`, `cinema-changed`.
    public var action: String
    /// The operator's name or the cinema's id.
    public var subject: String
    /// What changed, in words (never a key).
    public var detail: String

    public init(at: Int64, operatorName: String, action: String, subject: String, detail: String) {
        self.at = at; self.operatorName = operatorName; self.action = action; self.subject = subject; self.detail = detail
    }
}

/// Where cinemas and staff are kept (both stores; on a store of shards, every shard, so any shard that
/// answers knows who may act). A save keeps the newer revision of a row: two instances changing one
/// operator at once end with the later change on every shard, whichever wrote first.
public protocol StaffStore: AnyObject, Sendable {
    /// Writes `cinema` unless a newer revision of it is kept; answers whether it was written.
    func saveCinema(_ cinema: CinemaRecord) throws -> Bool
    /// Every cinema, by id.
    func cinemas() throws -> [CinemaRecord]
    /// Writes `record` unless a newer revision of it is kept; answers whether it was written. A key
    /// digest another operator has is refused (`StoreError` conflict).
    func saveStaff(_ record: StaffRecord) throws -> Bool
    /// Every operator, deleted ones too, by name.
    func allStaff() throws -> [StaffRecord]
    /// The newest revision of any operator or cinema (what an instance compares to know it must read
    /// them again): 0 when none.
    func staffRevision() throws -> Int64
    func appendStaffLog(_ line: StaffLogLine) throws
    /// The newest `limit` lines, newest first.
    func staffLog(limit: Int) throws -> [StaffLogLine]
    func saveSession(_ session: StaffSession) throws
    func session(digest: String) throws -> StaffSession?
    func deleteSession(digest: String) throws
    /// Ends every session of `name` (a new password, disabled, removed) and those past `before`.
    func deleteSessions(name: String?, expiredBefore: Int64) throws
}

extension SeatStore {
    /// None unless a store keeps staff (both stores do; a test's store may not).
    public var staff: (any StaffStore)? { nil }
}
