import Foundation
import SeatDomain
import SeatJSON

/// A show taken out of one shard's database and put into another's, rows as they are (identifiers kept).
extension PostgresStore {
    /// Every table that keeps rows of one show, and how they are told apart. Kept answers
    /// (`idempotency`) carry no show and stay behind: a retry after a move is decided again.
    static let showTables: [(table: String, rows: String)] = [
        ("shows", "id = $1"), ("holds", "show_id = $1"), ("claims", "show_id = $1"), ("show_log", "show_id = $1"),
        ("refunds", "hold_id IN (SELECT id FROM holds WHERE show_id = $1)"), ("checkins", "show_id = $1"), ("ticket_presence", "show_id = $1"),
        ("queues", "show_id = $1"), ("queue_entries", "show_id = $1"), ("order_contacts", "show_id = $1"),
    ]

    static let movesTable =
        "CREATE TABLE IF NOT EXISTS shard_moves(show_id TEXT NOT NULL, from_shard TEXT NOT NULL, to_shard TEXT NOT NULL, moved_at BIGINT NOT NULL)"

    /// Takes the show out: its row locked (every other instance's change of it waits, then finds it
    /// gone and is refused), each table's rows read as JSON and handed to `put` (the other shard's
    /// write), then deleted here, with the move recorded, in one transaction. Nothing is deleted when
    /// `put` throws. `onSale`: checked under the lock, so a show switched on meanwhile is not moved.
    func takeOut(show id: String, from: String, to: String, put: ([String: String]) throws -> Void) throws {
        try withConnection { c in
            try c.execute(Self.movesTable)
            try c.execute("BEGIN")
            do {
                let row = try c.run("move_lock", "SELECT on_sale, cancelled_at, starts_at FROM shows WHERE id = $1 FOR UPDATE", [id])
                guard !row.rows.isEmpty else { throw PlacementError.unknownShow(id) }
                let started = (Timestamp.milliseconds(row.text(0, 2)) ?? 0) <= Int64(Date().timeIntervalSince1970 * 1000)
                if row.text(0, 0) == "t" && row.rows[0][1] == nil && !started { throw PlacementError.onSale(show: id) }
                var rows: [String: String] = [:]
                for (table, filter) in Self.showTables {
                    rows[table] = try c.run("move_read_" + table, "SELECT coalesce(json_agg(t), '[]')::text FROM \(table) t WHERE \(filter)", [id]).text(0, 0)
                }
                try put(rows)
                for (table, filter) in Self.showTables.reversed() where table != "holds" && table != "shows" {
                    try c.run("move_delete_" + table, "DELETE FROM \(table) WHERE \(filter)", [id])
                }
                try c.run("move_delete_holds", "DELETE FROM holds WHERE show_id = $1", [id])
                try c.run("move_delete_show", "DELETE FROM shows WHERE id = $1", [id])
                try c.run("move_record", "INSERT INTO shard_moves VALUES($1, $2, $3, $4)", [id, from, to, Self.now()])
                try c.execute("COMMIT")
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Puts a show's rows in, in one transaction: what an earlier, interrupted move left of it here is
    /// replaced. Every instance hears of it (the show's id, read as a gap: where the show is is read again).
    func putIn(show id: String, rows: [String: String], from: String, to: String) throws {
        try withConnection { c in
            try c.execute(Self.movesTable)
            try c.execute("BEGIN")
            do {
                for (table, filter) in Self.showTables.reversed() { try c.run("move_clear_" + table, "DELETE FROM \(table) WHERE \(filter)", [id]) }
                for (table, _) in Self.showTables {
                    try c.run(
                        "move_write_" + table, "INSERT INTO \(table) SELECT * FROM json_populate_recordset(NULL::\(table), $1::json)", [rows[table] ?? "[]"])
                }
                try c.run("move_record", "INSERT INTO shard_moves VALUES($1, $2, $3, $4)", [id, from, to, Self.now()])
                let channel = try c.execute("SELECT current_schema()").text(0, 0)
                try c.run("move_notify", "SELECT pg_notify($1, $2)", [Self.channel + "_" + channel, id])
                try c.execute("COMMIT")
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The latest move of the show into this shard: from which shard, when (Unix ms); nil if none.
    func lastArrival(show id: String) throws -> (from: String, at: Int64)? {
        try withConnection { c in
            try c.execute(Self.movesTable)
            let r = try c.run(
                "last_arrival",
                "SELECT from_shard, moved_at FROM shard_moves WHERE show_id = $1 AND to_shard = (SELECT name FROM shard_identity) ORDER BY moved_at DESC LIMIT 1",
                [id])
            guard !r.rows.isEmpty, let at = Int64(r.text(0, 1)) else { return nil }
            return (r.text(0, 0), at)
        }
    }

    /// Deletes, in one transaction, the copy of a show an interrupted move left here (it never became
    /// the show: the source kept it), with the record of its arrival.
    func discard(show id: String, from: String) throws {
        try withConnection { c in
            try c.execute("BEGIN")
            do {
                for (table, filter) in Self.showTables.reversed() { try c.run("move_clear_" + table, "DELETE FROM \(table) WHERE \(filter)", [id]) }
                try c.run(
                    "move_forget", "DELETE FROM shard_moves WHERE show_id = $1 AND from_shard = $2 AND to_shard = (SELECT name FROM shard_identity)",
                    [id, from])
                try c.execute("COMMIT")
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The shards shows came here from (what a record's identifier may name though it is kept here).
    func movedFrom() throws -> Set<String> {
        try withConnection { c in
            try c.execute(Self.movesTable)
            let r = try c.run(
                "moved_from", "SELECT DISTINCT from_shard FROM shard_moves WHERE to_shard = (SELECT name FROM shard_identity) AND from_shard <> to_shard")
            return Set(r.rows.indices.map { r.text($0, 0) })
        }
    }
}
