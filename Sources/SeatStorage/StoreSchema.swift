/// What a store's schema is, read back from the database itself: each table's columns and primary
/// key. The two stores write their schemas in two SQL dialects; a test compares what each database
/// reports, so a column added to one and forgotten in the other fails.
struct StoreSchema: Equatable, CustomStringConvertible {
    struct Table: Equatable {
        var columns: [String]
        var primaryKey: [String]
    }

    var tables: [String: Table]

    var description: String {
        tables.keys.sorted().map { "\($0)(\(tables[$0]!.columns.joined(separator: ", ")); key \(tables[$0]!.primaryKey.joined(separator: ", ")))" }
            .joined(separator: "\n")
    }
}

extension SQLiteStore {
    /// The schema as SQLite reports it (`sqlite_master`, `PRAGMA table_info`).
    func reportedSchema() throws -> StoreSchema {
        try inspect { db in
            var names: [String] = []
            try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { names.append($0.text(0)) }
            var tables: [String: StoreSchema.Table] = [:]
            for name in names {
                var columns: [String] = [], key: [(Int64, String)] = []
                try db.query("SELECT name, pk FROM pragma_table_info(?)", [.text(name)]) { r in
                    columns.append(r.text(0))
                    if r.int(1) > 0 { key.append((r.int(1), r.text(0))) }
                }
                tables[name] = StoreSchema.Table(columns: columns.sorted(), primaryKey: key.sorted { $0.0 < $1.0 }.map(\.1))
            }
            return StoreSchema(tables: tables)
        }
    }
}

extension PostgresStore {
    /// The schema as PostgreSQL reports it (`information_schema`), its migrations table aside, and
    /// the tables only a shard has (`shard_identity`, `shard_moves`: shards are PostgreSQL databases).
    func reportedSchema() throws -> StoreSchema {
        try withConnection { c in
            let columns = try c.execute(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name NOT IN ('schema_migrations', 'shard_identity', 'shard_moves')"
            )
            let keys = try c.execute(
                """
                SELECT k.table_name, k.column_name FROM information_schema.table_constraints t
                JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema
                WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = current_schema() AND t.table_name NOT IN ('schema_migrations', 'shard_identity', 'shard_moves')
                ORDER BY k.table_name, k.ordinal_position
                """)
            var tables: [String: StoreSchema.Table] = [:]
            for r in 0..<columns.rows.count { tables[columns.text(r, 0), default: .init(columns: [], primaryKey: [])].columns.append(columns.text(r, 1)) }
            for r in 0..<keys.rows.count { tables[keys.text(r, 0)]?.primaryKey.append(keys.text(r, 1)) }
            for name in tables.keys { tables[name]?.columns.sort() }
            return StoreSchema(tables: tables)
        }
    }
}

/// A store's whole schema as text, from the database's own catalogue: what the schema test compares
/// between a database made from the baseline, one made through every migration and the golden dump
/// (`Tests/SeatServerTests/Snapshots/schema-*.sql`). Everything a migration can change is in it: each
/// table's columns in order with their types, defaults and statistics, constraints, indexes and functions.
enum SchemaDump {
    /// SQLite keeps each object's `CREATE` statement as it has it (a column added is appended to its
    /// table's), so the statements in `sqlite_master` are the schema.
    /// - Complexity: O(objects).
    static func sqlite(_ db: SQLiteDatabase) throws -> String {
        var lines: [String] = []
        try db.query("SELECT type, name, coalesce(sql, '(made by SQLite)') FROM sqlite_master ORDER BY type, name") {
            lines.append("-- \($0.text(0)) \($0.text(1))\n\($0.text(2));")
        }
        return lines.joined(separator: "\n\n") + "\n"
    }

    /// PostgreSQL's catalogue, read in the connection's schema (its name left out, so two schemas
    /// compare), the migrations' own table aside.
    /// - Complexity: O(objects).
    static func postgres(_ c: PostgresConnection) throws -> String {
        let here = "current_schema()::regnamespace"
        let parts = [
            // Tables and composite types: each column as declared, in order (a column a migration adds
            // comes last).
            """
            SELECT '-- ' || CASE c.relkind WHEN 'c' THEN 'type ' ELSE 'table ' END || c.relname || E'\\n' || string_agg('  ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                   || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
                   || CASE WHEN coalesce(a.attstattarget, -1) = 0 THEN ' STATISTICS 0' ELSE '' END, E'\\n' ORDER BY a.attnum)
            FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
            WHERE c.relnamespace = \(here) AND c.relkind IN ('r', 'c') AND c.relname <> 'schema_migrations'
            GROUP BY c.relkind, c.relname ORDER BY c.relkind DESC, c.relname
            """,
            """
            SELECT '-- constraint ' || conrelid::regclass::text || ' ' || conname || E'\\n' || pg_get_constraintdef(oid) || ';'
            FROM pg_constraint WHERE connamespace = \(here) AND conrelid <> 0 AND conrelid::regclass::text <> 'schema_migrations'
            ORDER BY conrelid::regclass::text, conname
            """,
            """
            SELECT '-- index ' || indexname || E'\\n' || regexp_replace(indexdef, ' ON [^ .]+\\.', ' ON ') || ';' FROM pg_indexes
            WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' ORDER BY tablename, indexname
            """,
            // Functions as PostgreSQL keeps them (their text verbatim); the schema's name is taken out of
            // functions' headers and indexes' tables, where PostgreSQL writes it whatever the search path.
            """
            SELECT '-- function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || E')\\n'
                   || regexp_replace(pg_get_functiondef(p.oid), '^CREATE OR REPLACE FUNCTION [^.(]+\\.', 'CREATE OR REPLACE FUNCTION ')
            FROM pg_proc p WHERE p.pronamespace = \(here) ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)
            """,
            """
            SELECT '-- ' || CASE c.relkind WHEN 'S' THEN 'sequence' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view'
                   ELSE c.relkind::text END || ' ' || c.relname
            FROM pg_class c WHERE c.relnamespace = \(here) AND c.relkind NOT IN ('r', 'i', 'c') ORDER BY c.relname
            """,
        ]
        var out: [String] = []
        for sql in parts {
            let rows = try c.execute(sql)
            for r in 0..<rows.rows.count { out.append(rows.text(r, 0)) }
        }
        return out.joined(separator: "\n\n") + "\n"
    }
}
