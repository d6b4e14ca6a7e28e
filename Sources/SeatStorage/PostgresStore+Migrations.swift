import Foundation
import SeatSecrets

/// The schema: a new database from the baseline, an older one through the migrations it has not had,
/// each once, in order (`MigrationFiles`: the SQL is in `Migrations/postgres-*.sql`).
extension PostgresStore {
    /// Applies the migrations not yet applied, under an advisory lock (instances starting together
    /// migrate once).
    /// A database with none of the store's tables yet starts from the baseline (one step, marked as at
    /// every migration); `fromBaseline: false` takes it through every migration instead (the schema
    /// test's other road to the same schema).
    func migrate(_ c: PostgresConnection, fromBaseline: Bool = true) throws {
        try c.execute("SELECT pg_advisory_lock(730201)")
        // A session's advisory locks end with the session, so a failed unlock frees itself on disconnect.
        defer { _ = try? c.execute("SELECT pg_advisory_unlock(730201)") }
        try c.execute("CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY)")
        let applied = try c.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").int(0, 0)
        let steps = MigrationFiles.postgres
        let tables = try c.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'"
        ).int(0, 0)
        if applied == 0 && tables == 0 && fromBaseline {
            try c.execute("BEGIN")
            do {
                try c.execute(MigrationFiles.postgresBaseline)
                try c.execute("INSERT INTO schema_migrations(version) SELECT generate_series(1, \(steps.count))")
                try c.execute("COMMIT")
            } catch { _ = try? c.execute("ROLLBACK"); throw error }
            return
        }
        for (k, sql) in steps.enumerated() where k >= applied {
            try c.execute("BEGIN")
            do {
                try c.execute(sql)
                if k + 1 == MigrationFiles.postgresTokenDigests { try Self.hashPlainTokens(c) }
                try c.execute("INSERT INTO schema_migrations(version) VALUES(\(k + 1))")
                try c.execute("COMMIT")
            } catch { _ = try? c.execute("ROLLBACK"); throw error }
        }
    }

    /// Migration 2's data step: tokens stored in the clear by an older version become their digests.
    static func hashPlainTokens(_ c: PostgresConnection) throws {
        let plain = try c.execute("SELECT id, token FROM holds WHERE length(token) <> \(Secrets.tokenDigestLength)")
        for r in 0..<plain.rows.count {
            try c.run("migrate_token", "UPDATE holds SET token = $1 WHERE id = $2", [Secrets.tokenDigest(plain.text(r, 1)), plain.text(r, 0)])
        }
    }
}
