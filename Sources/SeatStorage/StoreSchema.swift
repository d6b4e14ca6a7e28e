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
    /// The schema as PostgreSQL reports it (`information_schema`), its migrations table aside.
    func reportedSchema() throws -> StoreSchema {
        try withConnection { c in
            let columns = try c.execute(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'")
            let keys = try c.execute(
                """
                SELECT k.table_name, k.column_name FROM information_schema.table_constraints t
                JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema
                WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = current_schema() AND t.table_name <> 'schema_migrations'
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
