import Foundation
import SeatDomain
import SeatKitTestSupport
import SeatSecrets
import SeatServerTestSupport
import Testing

@testable import SeatStorage

/// The stores' schemas are SQL files (`Sources/SeatStorage/Migrations`): a new database starts from the
/// baseline, an older one goes through the migrations it has not had. Both roads must end at one schema,
/// the golden dump under `Snapshots/` (re-recorded on purpose with SEATKIT_RECORD=1), and a store made by
/// a released main (`Fixtures/main-*`, made by scripts/make-schema-fixtures.sh) must open with its data.
@Suite(.serialized) struct MigrationTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let snapshots = here.appendingPathComponent("Snapshots")
    static let fixture = here.appendingPathComponent("Fixtures/main-2026-12-06")

    // — SQLite —

    func sqliteDump(_ path: String) throws -> (dump: String, version: Int64) {
        let db = try SQLiteDatabase(path: path)
        var version: Int64 = 0
        try db.query("PRAGMA user_version") { version = $0.int(0) }
        return (try SchemaDump.sqlite(db), version)
    }

    @Test func sqliteBaselineAndStepsBuildTheGoldenSchema() throws {
        let dir = try TestDirectory()
        defer { dir.remove() }
        let base = dir.url.appendingPathComponent("baseline.db").path, steps = dir.url.appendingPathComponent("steps.db").path
        _ = try SQLiteStore(path: base)
        try SQLiteStore.migrate(SQLiteDatabase(path: steps), fromBaseline: false)
        let a = try sqliteDump(base), b = try sqliteDump(steps)
        #expect(a.version == Int64(MigrationFiles.sqlite.count) && b.version == a.version)
        #expect(a.dump == b.dump, "the baseline and the \(MigrationFiles.sqlite.count) migrations build one schema")
        #expect(a.dump.contains("CREATE TABLE holds(") && a.dump.contains("admission TEXT"))
        assertSnapshot(a.dump, named: "schema-sqlite.sql", in: Self.snapshots)
    }

    @Test func aSQLiteStoreMadeByTodaysMainOpensWithItsData() throws {
        let dir = try TestDirectory()
        defer { dir.remove() }
        let path = dir.url.appendingPathComponent("main.db").path
        try FileManager.default.copyItem(atPath: Self.fixture.path + ".sqlite", toPath: path)
        let store = try SQLiteStore(path: path)
        try expectTheFixturesData(store)
        let fresh = dir.url.appendingPathComponent("fresh.db").path
        _ = try SQLiteStore(path: fresh)
        #expect(try sqliteDump(path) == sqliteDump(fresh))
    }

    @Test func anOlderSQLiteStoreGoesThroughTheStepsAndItsTokensBecomeDigests() throws {
        let dir = try TestDirectory()
        defer { dir.remove() }
        let path = dir.url.appendingPathComponent("v1.db").path
        let db = try SQLiteDatabase(path: path)
        try db.execute(MigrationFiles.sqlite[0])
        try db.execute("PRAGMA user_version = 1")
        try db.execute(
            """
            INSERT INTO venues VALUES('v', 'f', X'7B7D', 0);
            INSERT INTO shows VALUES('s', 'v', '2099-01-01T00:00:00+08:00', '{}', '{}', 600, 3);
            INSERT INTO holds VALUES('h1', 'clear-token-1', 's', 'confirmed', 0, 0, 'A-1', 0, 0);
            INSERT INTO claims VALUES('s', 7, 'sold', 'h1');
            """)
        let store = try SQLiteStore(path: path)
        let fresh = dir.url.appendingPathComponent("fresh.db").path
        _ = try SQLiteStore(path: fresh)
        #expect(try sqliteDump(path) == sqliteDump(fresh))
        #expect(try store.claims(show: "s") == [Claim(seat: 7, status: .sold, holdID: "h1")])
        #expect(try store.hold(tokenDigest: Secrets.tokenDigest("clear-token-1"))?.id == "h1", "migration 2's data step ran")
    }

    // — PostgreSQL —

    func postgres() throws -> String {
        guard let url = StoreBackend.postgresURL else { throw StoreBackend.MissingPostgres() }
        return url
    }

    func schema() -> String { "m_" + UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(16) }

    func postgresDump(_ url: String, _ schema: String) throws -> (dump: String, version: Int64) {
        let c = try PostgresConnection(conninfo: url, schema: schema)
        return (try SchemaDump.postgres(c), try c.execute("SELECT max(version) FROM schema_migrations").int(0, 0))
    }

    @Test func postgresBaselineAndStepsBuildTheGoldenSchema() throws {
        let url = try postgres()
        let base = schema(), steps = schema()
        let store = try PostgresStore(url: url + "?schema=" + base)
        try store.migrate(PostgresConnection(conninfo: url, schema: steps), fromBaseline: false)
        let a = try postgresDump(url, base), b = try postgresDump(url, steps)
        #expect(a.version == Int64(MigrationFiles.postgres.count) && b.version == a.version)
        #expect(a.dump == b.dump, "the baseline and the \(MigrationFiles.postgres.count) migrations build one schema")
        #expect(a.dump.contains("-- function seatkit_write(") && a.dump.contains("-- function seatkit_commit("))
        #expect(a.dump.contains("-- type seatkit_change\n  show text") && !a.dump.contains("seatkit_write_arrays"))
        assertSnapshot(a.dump, named: "schema-postgres.sql", in: Self.snapshots)
    }

    @Test func aPostgresStoreMadeByTodaysMainOpensWithItsData() throws {
        let url = try postgres()
        let made = schema(), fresh = schema()
        let c = try PostgresConnection(conninfo: url, schema: made)
        try c.execute(String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.fixture.path + ".postgres.sql")), as: UTF8.self))
        let store = try PostgresStore(url: url + "?schema=" + made)
        try expectTheFixturesData(store)
        _ = try PostgresStore(url: url + "?schema=" + fresh)
        #expect(try postgresDump(url, made) == postgresDump(url, fresh))
    }

    /// A database in `schema` as an older version left it: migrations 1 to `version` applied, no more.
    func steppedPostgres(_ url: String, _ schema: String, through version: Int) throws -> PostgresConnection {
        let c = try PostgresConnection(conninfo: url, schema: schema)
        try c.execute("CREATE TABLE schema_migrations(version INTEGER PRIMARY KEY)")
        for k in 0..<version { try c.execute(MigrationFiles.postgres[k]); try c.execute("INSERT INTO schema_migrations VALUES(\(k + 1))") }
        return c
    }

    @Test func anOlderPostgresStoreGoesThroughTheStepsAndItsTokensBecomeDigests() throws {
        let url = try postgres()
        let (old, fresh) = (schema(), schema())
        let c = try steppedPostgres(url, old, through: 2)
        try c.execute(
            """
            INSERT INTO venues VALUES('v', 'f', '{}', 0);
            INSERT INTO shows VALUES('s', 'v', '2099-01-01T00:00:00+08:00', '{}', '{}', 600, 3);
            INSERT INTO holds VALUES('h1', 'clear-token-1', 's', 'confirmed', 0, false, 'A-1', false, 0);
            INSERT INTO claims VALUES('s', 7, 'sold', 'h1');
            """)
        let store = try PostgresStore(url: url + "?schema=" + old)
        _ = try PostgresStore(url: url + "?schema=" + fresh)
        #expect(try postgresDump(url, old) == postgresDump(url, fresh))
        #expect(try store.claims(show: "s") == [Claim(seat: 7, status: .sold, holdID: "h1")])
        #expect(try store.hold(tokenDigest: Secrets.tokenDigest("clear-token-1"))?.id == "h1", "migration 3's data step ran")
    }

    /// A shard's database from before migration 19: its name and its moves were tables the code made
    /// on first use, each move a row once done. They become the schema's, each move settled: the
    /// source's row `source_deleted`, the target's `copied` (what `movedFrom` routes old ids by).
    @Test func aShardMadeBeforeRecordedMovesKeepsItsMovesSettled() throws {
        let url = try postgres()
        let (old, fresh) = (schema(), schema())
        let c = try steppedPostgres(url, old, through: 18)
        // As the code before migration 19 made them (`claimShardName`, `takeOut` and `putIn`).
        try c.execute(
            """
            CREATE TABLE IF NOT EXISTS shard_identity(one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), name TEXT NOT NULL, claimed_at BIGINT NOT NULL);
            INSERT INTO shard_identity(name, claimed_at) VALUES('west', 1);
            CREATE TABLE IF NOT EXISTS shard_moves(show_id TEXT NOT NULL, from_shard TEXT NOT NULL, to_shard TEXT NOT NULL, moved_at BIGINT NOT NULL);
            INSERT INTO shard_moves VALUES('a', 'east', 'west', 10), ('b', 'west', 'north', 20);
            """)
        let store = try PostgresStore(url: url + "?schema=" + old)
        _ = try PostgresStore(url: url + "?schema=" + fresh)
        #expect(try postgresDump(url, old) == postgresDump(url, fresh))
        let moves = try c.execute("SELECT show_id, state, length(move_id) FROM shard_moves ORDER BY show_id")
        #expect(moves.rows.map { $0.compactMap { $0 } } == [["a", "copied", "36"], ["b", "source_deleted", "36"]])
        #expect(try store.movedFrom() == ["east"] && store.unsettledMoves().isEmpty)
    }

    // — Both —

    /// What scripts/make-schema-fixtures.sh made through the API of the released binary.
    func expectTheFixturesData(_ store: SeatStore) throws {
        #expect(try store.venues().map(\.id) == ["cinema-hall-3"])
        #expect(Set(try store.shows().map(\.id)) == ["fixture-show", "fixture-queued"])
        let claims = try store.claims(show: "fixture-show")
        #expect(claims.filter { $0.status == .sold }.count == 3, "7-1, 7-2 sold online, 5-1 at the counter (5-2 refunded)")
        #expect(claims.filter { $0.status == .blocked }.count == 1 && claims.filter { $0.status == .held }.count == 1)
        #expect(try store.contacts?.contact(orderRef: "COUNTER-1")?.name == "王小明")
    }
}

/// The few values written into SQL text itself, each escaped for its place.
@Suite struct SQLTextTests {
    @Test func eachPlaceEscapesItsOwnCharacters() {
        #expect(SQLText.identifier(#"t_"x""#) == #""t_""x""""#)
        #expect(SQLText.literal("it's") == "it''s")
        #expect(SQLText.arrayElement(#"a\"b"#) == #""a\\\"b""#)
        #expect(SQLText.likeLiteral(#"50%_a\b"#) == #"50\%\_a\\b"#)
        #expect(SQLText.likeLiteral("王小明") == "王小明", "other characters as they are")
    }
}
