import Foundation

/// The waiting rooms' tables, one text for both stores (PostgreSQL's types substituted), so the two
/// stay alike (`sqliteAndPostgresHaveTheSameTablesColumnsAndKeys`).
enum QueueSchema {
    static let template = """
        CREATE TABLE queues(show_id TEXT PRIMARY KEY REFERENCES shows(id), created_at BIGINT NOT NULL, opens_at BIGINT NOT NULL,
                            admit_per_minute INTEGER NOT NULL, early_minutes INTEGER NOT NULL, admission_minutes INTEGER NOT NULL,
                            max_per_address INTEGER NOT NULL, opened_at BIGINT, early_count INTEGER NOT NULL, credit DOUBLE NOT NULL,
                            last_advance BIGINT, sold_out INTEGER NOT NULL, off_at BIGINT, revision BIGINT NOT NULL);
        CREATE TABLE queue_entries(show_id TEXT NOT NULL REFERENCES queues(show_id), key TEXT NOT NULL, address TEXT NOT NULL,
                                   seq BIGINT NOT NULL, arrived_at BIGINT NOT NULL,
                                   state TEXT NOT NULL CHECK(state IN ('early','waiting','admitted','soldOut','left')),
                                   place INTEGER, admitted_until BIGINT, used INTEGER NOT NULL, last_seen BIGINT NOT NULL,
                                   revision BIGINT NOT NULL, PRIMARY KEY(show_id, key))WITHOUT;
        CREATE INDEX queue_entries_revision ON queue_entries(show_id, revision);
        """

    static let sqlite = template.replacingOccurrences(of: "BIGINT", with: "INTEGER").replacingOccurrences(of: "DOUBLE", with: "REAL")
        .replacingOccurrences(of: ")WITHOUT;", with: ") WITHOUT ROWID;")
    static let postgres = template.replacingOccurrences(of: "DOUBLE", with: "DOUBLE PRECISION").replacingOccurrences(of: ")WITHOUT;", with: ");")

    /// Places a network may hold and arrivals a second (250 loopback addresses made 2,000 places in 1.2 s
    /// past the per-address limit). Embedded store's migration 10, shared store's migration 17.
    static let networkLimits = """
        ALTER TABLE queues ADD COLUMN max_per_network INTEGER NOT NULL DEFAULT 64;
        ALTER TABLE queues ADD COLUMN max_joins_per_second INTEGER NOT NULL DEFAULT 1000;
        """

    static let roomColumns =
        "show_id, created_at, opens_at, admit_per_minute, early_minutes, admission_minutes, max_per_address, opened_at, early_count, credit, last_advance, sold_out, off_at, revision, max_per_network, max_joins_per_second"
    static let entryColumns = "key, address, seq, arrived_at, state, place, admitted_until, used, last_seen"

    /// Upserts (the same text in both stores; `?` becomes `$n` for PostgreSQL).
    static let upsertRoom: String = {
        let columns = roomColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO queues(\(roomColumns)) VALUES(\(Array(repeating: "?", count: columns.count).joined(separator: ","))) "
            + "ON CONFLICT(show_id) DO UPDATE SET \(updates)"
    }()
    static let upsertEntry: String = {
        let columns = ["show_id"] + entryColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } + ["revision"]
        let updates = columns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO queue_entries(\(columns.joined(separator: ", "))) VALUES(\(Array(repeating: "?", count: columns.count).joined(separator: ","))) "
            + "ON CONFLICT(show_id, key) DO UPDATE SET \(updates)"
    }()

    /// `sql` with PostgreSQL's numbered parameters for SQLite's `?`.
    static func numbered(_ sql: String) -> String {
        var out = "", k = 0
        for c in sql {
            if c == "?" { k += 1; out += "$\(k)" } else { out.append(c) }
        }
        return out
    }
}
