import SeatDomain

/// The seasons' statements (the table: `Migrations/*-seasons.sql`). A season's shows are one text,
/// their ids a line each (an id has no line break). A box office makes a few seasons a year: every
/// read is the whole table.
enum SeasonSchema {
    static let insert = "INSERT INTO seasons(id, name, shows, parent, created_at, operator) VALUES(?, ?, ?, ?, ?, ?)"
    static let columns = "id, name, shows, parent, created_at, operator"
    static let all = "SELECT \(columns) FROM seasons ORDER BY created_at, id"
    static let byID = "SELECT \(columns) FROM seasons WHERE id = ?"

    static func values(_ s: SeasonRecord) -> [String?] {
        [s.id, s.name, s.shows.joined(separator: "\n"), s.parent, String(s.createdAt), s.operatorName]
    }

    static func season(_ row: [String?]) -> SeasonRecord {
        SeasonRecord(
            id: row[0] ?? "", name: row[1] ?? "", shows: (row[2] ?? "").split(separator: "\n").map(String.init), parent: row[3],
            createdAt: Int64(row[4] ?? "") ?? 0, operatorName: row[5] ?? "")
    }
}

extension SQLiteStore: SeasonStore {
    public var seasons: (any SeasonStore)? { self }

    public func insertSeason(_ s: SeasonRecord) throws {
        try locked { db in try db.run(SeasonSchema.insert, SeasonSchema.values(s).map { $0.map(SQLValue.text) ?? .null }) }
        try syncer?.waitUntilDurable()
    }

    public func allSeasons() throws -> [SeasonRecord] { try read(SeasonSchema.all, []) }

    public func season(id: String) throws -> SeasonRecord? { try read(SeasonSchema.byID, [.text(id)]).first }

    private func read(_ sql: String, _ values: [SQLValue]) throws -> [SeasonRecord] {
        try locked { db in
            var out: [SeasonRecord] = []
            try db.query(sql, values) { r in out.append(SeasonSchema.season((0..<6).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) })) }
            return out
        }
    }
}

extension PostgresStore: SeasonStore {
    public var seasons: (any SeasonStore)? { self }

    public func insertSeason(_ s: SeasonRecord) throws {
        try withConnection { c in _ = try c.run("season_insert", QueueSchema.numbered(SeasonSchema.insert), SeasonSchema.values(s)) }
    }

    public func allSeasons() throws -> [SeasonRecord] {
        try withConnection { c in try c.run("season_all", SeasonSchema.all, []).rows.map(SeasonSchema.season) }
    }

    public func season(id: String) throws -> SeasonRecord? {
        try withConnection { c in try c.run("season_by_id", QueueSchema.numbered(SeasonSchema.byID), [id]).rows.first.map(SeasonSchema.season) }
    }
}

/// A season is kept on its shows' shard (they are all on one: its sales are written together).
extension ShardedStore: SeasonStore {
    public var seasons: (any SeasonStore)? { self }

    public func insertSeason(_ s: SeasonRecord) throws {
        guard let first = s.shows.first else { return }
        try shard(forShow: first).run { try $0.insertSeason(s) }
    }

    public func allSeasons() throws -> [SeasonRecord] {
        try everyShard { try $0.allSeasons() }.flatMap { $0 }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func season(id: String) throws -> SeasonRecord? { try everyShard { try $0.season(id: id) }.compactMap { $0 }.first }
}
