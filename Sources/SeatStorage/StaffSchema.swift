import SeatDomain

/// The staff's statements (the tables: `Migrations/*-staff.sql`). A chain has tens of cinemas and
/// hundreds of operators: every read is the whole table. A save keeps the newer revision (`WHERE
/// excluded.revision > …`), so shards written in any order agree.
enum StaffSchema {
    static let saveCinema = """
        INSERT INTO cinemas(id, name, venues, revision, created_at) VALUES(?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET name = excluded.name, venues = excluded.venues, revision = excluded.revision
        WHERE excluded.revision > cinemas.revision
        """
    static let cinemas = "SELECT id, name, venues, revision, created_at FROM cinemas ORDER BY id"
    static let saveStaff = """
        INSERT INTO staff(name, role, cinemas, key_digest, state, revision, created_at, changed_by, password, totp)
        VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET role = excluded.role, cinemas = excluded.cinemas, key_digest = excluded.key_digest,
          state = excluded.state, revision = excluded.revision, changed_by = excluded.changed_by, password = excluded.password,
          totp = excluded.totp
        WHERE excluded.revision > staff.revision
        """
    static let staff = "SELECT name, role, cinemas, key_digest, state, revision, created_at, changed_by, password, totp FROM staff ORDER BY name"
    static let saveSession = "INSERT INTO staff_sessions(digest, name, csrf, created_at, expires_at) VALUES(?, ?, ?, ?, ?)"
    static let session = "SELECT digest, name, csrf, created_at, expires_at FROM staff_sessions WHERE digest = ?"
    static let deleteSession = "DELETE FROM staff_sessions WHERE digest = ?"
    static let deleteSessions = "DELETE FROM staff_sessions WHERE name = ? OR expires_at < ?"
    static let revision = "SELECT max(r) FROM (SELECT max(revision) AS r FROM staff UNION ALL SELECT max(revision) FROM cinemas) AS t"
    static let appendLog = "INSERT INTO staff_log(at, operator, action, subject, detail) VALUES(?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
    static let log = "SELECT at, operator, action, subject, detail FROM staff_log ORDER BY at DESC, subject, action LIMIT ?"

    static func values(_ c: CinemaRecord) -> [String?] { [c.id, c.name, c.venues.joined(separator: "\n"), String(c.revision), String(c.createdAt)] }

    static func cinema(_ row: [String?]) -> CinemaRecord {
        CinemaRecord(
            id: row[0] ?? "", name: row[1] ?? "", venues: (row[2] ?? "").split(separator: "\n").map(String.init),
            revision: Int64(row[3] ?? "") ?? 0, createdAt: Int64(row[4] ?? "") ?? 0)
    }

    /// `*` for every cinema, else the ids a line each (an id has no line break).
    static func values(_ s: StaffRecord) -> [String?] {
        [
            s.name, s.role, s.cinemas.map { $0.joined(separator: "\n") } ?? "*", s.keyDigest, s.state.rawValue, String(s.revision),
            String(s.createdAt), s.changedBy, s.passwordDigest, s.totpSealed,
        ]
    }

    static func staffRow(_ row: [String?]) -> StaffRecord {
        let cinemas = row[2] ?? "*"
        return StaffRecord(
            name: row[0] ?? "", role: row[1] ?? "", cinemas: cinemas == "*" ? nil : cinemas.split(separator: "\n").map(String.init),
            keyDigest: row[3], state: StaffRecord.State(rawValue: row[4] ?? "") ?? .disabled, revision: Int64(row[5] ?? "") ?? 0,
            createdAt: Int64(row[6] ?? "") ?? 0, changedBy: row[7] ?? "", passwordDigest: row[8], totpSealed: row[9])
    }

    static func values(_ s: StaffSession) -> [String?] { [s.digest, s.name, s.csrf, String(s.createdAt), String(s.expiresAt)] }

    static func sessionRow(_ row: [String?]) -> StaffSession {
        StaffSession(digest: row[0] ?? "", name: row[1] ?? "", csrf: row[2] ?? "", createdAt: Int64(row[3] ?? "") ?? 0, expiresAt: Int64(row[4] ?? "") ?? 0)
    }

    static func values(_ l: StaffLogLine) -> [String?] { [String(l.at), l.operatorName, l.action, l.subject, l.detail] }

    static func logLine(_ row: [String?]) -> StaffLogLine {
        StaffLogLine(at: Int64(row[0] ?? "") ?? 0, operatorName: row[1] ?? "", action: row[2] ?? "", subject: row[3] ?? "", detail: row[4] ?? "")
    }
}

extension SQLiteStore: StaffStore {
    public var staff: (any StaffStore)? { self }

    public func saveCinema(_ c: CinemaRecord) throws -> Bool { try write(StaffSchema.saveCinema, StaffSchema.values(c)) }

    public func cinemas() throws -> [CinemaRecord] { try rows(StaffSchema.cinemas, [], columns: 5).map(StaffSchema.cinema) }

    public func saveStaff(_ s: StaffRecord) throws -> Bool { try write(StaffSchema.saveStaff, StaffSchema.values(s)) }

    public func allStaff() throws -> [StaffRecord] { try rows(StaffSchema.staff, [], columns: 10).map(StaffSchema.staffRow) }

    public func saveSession(_ s: StaffSession) throws { _ = try write(StaffSchema.saveSession, StaffSchema.values(s)) }

    public func session(digest: String) throws -> StaffSession? {
        try rows(StaffSchema.session, [digest], columns: 5).first.map(StaffSchema.sessionRow)
    }

    public func deleteSession(digest: String) throws { _ = try write(StaffSchema.deleteSession, [digest]) }

    public func deleteSessions(name: String?, expiredBefore: Int64) throws {
        _ = try write(StaffSchema.deleteSessions, [name ?? "", String(expiredBefore)])
    }

    /// On the read-only connection: every instance asks every 250 ms.
    public func staffRevision() throws -> Int64 {
        try reading { db in
            var revision: Int64 = 0
            try db.query(StaffSchema.revision, []) { r in revision = r.isNull(0) ? 0 : r.int(0) }
            return revision
        }
    }

    public func appendStaffLog(_ line: StaffLogLine) throws { _ = try write(StaffSchema.appendLog, StaffSchema.values(line)) }

    public func staffLog(limit: Int) throws -> [StaffLogLine] {
        try rows(StaffSchema.log, [String(limit)], columns: 5).map(StaffSchema.logLine)
    }

    /// One statement, flushed before the answer (a revoked key stays revoked after a crash).
    private func write(_ sql: String, _ values: [String?]) throws -> Bool {
        let changed = try locked { db in
            try db.run(sql, values.map { $0.map(SQLValue.text) ?? .null })
            return db.changes > 0
        }
        try syncer?.waitUntilDurable()
        return changed
    }

    private func rows(_ sql: String, _ values: [String?], columns: Int) throws -> [[String?]] {
        try locked { db in
            var out: [[String?]] = []
            try db.query(sql, values.map { $0.map(SQLValue.text) ?? .null }) { r in
                out.append((0..<columns).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) })
            }
            return out
        }
    }
}

extension PostgresStore: StaffStore {
    public var staff: (any StaffStore)? { self }

    public func saveCinema(_ c: CinemaRecord) throws -> Bool { try run("staff_save_cinema", StaffSchema.saveCinema, StaffSchema.values(c)).affected > 0 }

    public func cinemas() throws -> [CinemaRecord] { try run("staff_cinemas", StaffSchema.cinemas, []).rows.map(StaffSchema.cinema) }

    public func saveStaff(_ s: StaffRecord) throws -> Bool { try run("staff_save", StaffSchema.saveStaff, StaffSchema.values(s)).affected > 0 }

    public func allStaff() throws -> [StaffRecord] { try run("staff_all", StaffSchema.staff, []).rows.map(StaffSchema.staffRow) }

    public func staffRevision() throws -> Int64 { Int64(try run("staff_revision", StaffSchema.revision, []).rows.first?[0] ?? "") ?? 0 }

    public func appendStaffLog(_ line: StaffLogLine) throws { _ = try run("staff_log_append", StaffSchema.appendLog, StaffSchema.values(line)) }

    public func staffLog(limit: Int) throws -> [StaffLogLine] { try run("staff_log", StaffSchema.log, [String(limit)]).rows.map(StaffSchema.logLine) }

    public func saveSession(_ s: StaffSession) throws { _ = try run("staff_session_save", StaffSchema.saveSession, StaffSchema.values(s)) }

    public func session(digest: String) throws -> StaffSession? {
        try run("staff_session", StaffSchema.session, [digest]).rows.first.map(StaffSchema.sessionRow)
    }

    public func deleteSession(digest: String) throws { _ = try run("staff_session_delete", StaffSchema.deleteSession, [digest]) }

    public func deleteSessions(name: String?, expiredBefore: Int64) throws {
        _ = try run("staff_sessions_delete", StaffSchema.deleteSessions, [name ?? "", String(expiredBefore)])
    }

    private func run(_ name: String, _ sql: String, _ values: [String?]) throws -> PostgresRows {
        try withConnection { c in try c.run(name, QueueSchema.numbered(sql), values) }
    }
}

/// Staff belong to no show: every shard keeps them (as attendee books); a save goes to every shard
/// that answers, a read merges them, the newest revision of each row winning.
extension ShardedStore: StaffStore {
    public var staff: (any StaffStore)? { self }

    public func saveCinema(_ c: CinemaRecord) throws -> Bool { try everyShard { try $0.saveCinema(c) }.contains(true) }

    public func cinemas() throws -> [CinemaRecord] {
        Self.newest(try everyShard { try $0.cinemas() }.flatMap { $0 }, key: \.id, revision: \.revision).sorted { $0.id < $1.id }
    }

    public func saveStaff(_ s: StaffRecord) throws -> Bool { try everyShard { try $0.saveStaff(s) }.contains(true) }

    public func allStaff() throws -> [StaffRecord] {
        Self.newest(try everyShard { try $0.allStaff() }.flatMap { $0 }, key: \.name, revision: \.revision).sorted { $0.name < $1.name }
    }

    public func staffRevision() throws -> Int64 { try everyShard { try $0.staffRevision() }.max() ?? 0 }

    public func appendStaffLog(_ line: StaffLogLine) throws { _ = try everyShard { try $0.appendStaffLog(line) } }

    public func staffLog(limit: Int) throws -> [StaffLogLine] {
        var seen = Set<StaffLogLine>()
        return Array(
            try everyShard { try $0.staffLog(limit: limit) }.flatMap { $0 }.filter { seen.insert($0).inserted }
                .sorted { ($0.at, $1.subject, $1.action) > ($1.at, $0.subject, $0.action) }.prefix(limit))
    }

    public func saveSession(_ s: StaffSession) throws { _ = try everyShard { try $0.saveSession(s) } }

    public func session(digest: String) throws -> StaffSession? { try everyShard { try $0.session(digest: digest) }.compactMap { $0 }.first }

    public func deleteSession(digest: String) throws { _ = try everyShard { try $0.deleteSession(digest: digest) } }

    public func deleteSessions(name: String?, expiredBefore: Int64) throws {
        _ = try everyShard { try $0.deleteSessions(name: name, expiredBefore: expiredBefore) }
    }

    /// Each operator's and cinema's newest revision written to every shard that answers and has an older
    /// one (a shard that was down while a key was revoked must not give it back if the others go down
    /// later). Every 2 s on `sk-shards`; a save keeps the newer revision, so this never undoes a change.
    /// - Complexity: two reads of every shard's staff and cinemas (tens to hundreds of rows), writes only
    ///   where a shard is behind.
    func copyNewestStaff() throws {
        let live = reachable
        guard live.count > 1 else { return }
        let staffByShard = inParallel(live) { try $0.allStaff() }.map { try? $0.get() }
        let cinemasByShard = inParallel(live) { try $0.cinemas() }.map { try? $0.get() }
        let staff = Self.newest(staffByShard.compactMap { $0 }.flatMap { $0 }, key: \.name, revision: \.revision)
        let cinemas = Self.newest(cinemasByShard.compactMap { $0 }.flatMap { $0 }, key: \.id, revision: \.revision)
        for (k, shard) in live.enumerated() {
            guard let theirs = staffByShard[k], let theirCinemas = cinemasByShard[k] else { continue }
            let kept = Dictionary(theirs.map { ($0.name, $0.revision) }, uniquingKeysWith: max)
            let keptCinemas = Dictionary(theirCinemas.map { ($0.id, $0.revision) }, uniquingKeysWith: max)
            for record in staff where (kept[record.name] ?? -1) < record.revision { _ = try? shard.run { try $0.saveStaff(record) } }
            for cinema in cinemas where (keptCinemas[cinema.id] ?? -1) < cinema.revision { _ = try? shard.run { try $0.saveCinema(cinema) } }
        }
    }

    static func newest<T, K: Hashable>(_ rows: [T], key: KeyPath<T, K>, revision: KeyPath<T, Int64>) -> [T] {
        var best: [K: T] = [:]
        for r in rows where best[r[keyPath: key]].map({ $0[keyPath: revision] < r[keyPath: revision] }) ?? true { best[r[keyPath: key]] = r }
        return Array(best.values)
    }
}
