import Foundation
import SeatSecrets

/// The embedded store's schema: a new database from the baseline, an older one through the migrations
/// it has not had, each once, in order (`MigrationFiles`: the SQL is in `Migrations/sqlite-*.sql`; the
/// version is kept in `PRAGMA user_version`). The PostgreSQL store's schema is checked against it by
/// `sqliteAndPostgresHaveTheSameTablesColumnsAndKeys`.
extension SQLiteStore {
    /// A database with no tables yet starts from the baseline (one step, marked as at every migration);
    /// `fromBaseline: false` takes it through every migration instead (the schema test's other road).
    static func migrate(_ db: SQLiteDatabase, fromBaseline: Bool = true) throws {
        var version = 0, tables = 0
        try db.query("PRAGMA user_version") { version = Int($0.int(0)) }
        try db.query("SELECT count(*) FROM sqlite_master WHERE type = 'table'") { tables = Int($0.int(0)) }
        let steps = MigrationFiles.sqlite
        if version == 0 && tables == 0 && fromBaseline {
            try db.transaction {
                try db.execute(MigrationFiles.sqliteBaseline)
                try db.execute("PRAGMA user_version = \(steps.count)")
            }
            return
        }
        for (k, sql) in steps.enumerated() where k >= version {
            try db.transaction {
                try db.execute(sql)
                if k + 1 == MigrationFiles.sqliteTokenDigests { try hashPlainTokens(db) }
                try db.execute("PRAGMA user_version = \(k + 1)")
            }
        }
    }

    /// Migration 2's data step: every token stored in the clear by an older version becomes its digest.
    static func hashPlainTokens(_ db: SQLiteDatabase) throws {
        var plain: [(String, String)] = []
        try db.query("SELECT id, token FROM holds WHERE length(token) <> \(Secrets.tokenDigestLength)") { plain.append(($0.text(0), $0.text(1))) }
        for (id, token) in plain { try db.run("UPDATE holds SET token = ? WHERE id = ?", [.text(Secrets.tokenDigest(token)), .text(id)]) }
    }
}
