import Foundation

/// The waiting rooms' statements, one text for both stores (their tables: `Migrations/*-waiting-rooms.sql`
/// and `*-network-limits.sql`, kept alike by `sqliteAndPostgresHaveTheSameTablesColumnsAndKeys`).
enum QueueSchema {
    static let roomColumns =
        "show_id, created_at, opens_at, admit_per_minute, early_minutes, admission_minutes, max_per_address, opened_at, early_count, credit, last_advance, sold_out, off_at, revision, max_per_network, max_joins_per_second, pow_bits, draw_at, draw_winners, lanes"
    static let entryColumns = "key, address, seq, arrived_at, state, place, admitted_until, used, last_seen, identity, proof, lane, pass"

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
