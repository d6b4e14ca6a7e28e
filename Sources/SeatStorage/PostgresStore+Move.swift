import Foundation
import SeatDomain
import SeatJSON

/// A show taken out of one shard's database and put into another's, rows as they are (identifiers
/// kept), each step recorded in `shard_moves` (migration 19; `ShardMove` says what each state means).
extension PostgresStore {
    /// Every table that keeps rows of one show, and how they are told apart. Kept answers
    /// (`idempotency`) carry no show and stay behind: a retry after a move is decided again.
    static let showTables: [(table: String, rows: String)] = [
        ("shows", "id = $1"), ("holds", "show_id = $1"), ("claims", "show_id = $1"), ("show_log", "show_id = $1"),
        ("refunds", "hold_id IN (SELECT id FROM holds WHERE show_id = $1)"), ("checkins", "show_id = $1"), ("ticket_presence", "show_id = $1"),
        ("queues", "show_id = $1"), ("queue_entries", "show_id = $1"), ("order_contacts", "show_id = $1"),
        ("ticket_transfers", "show_id = $1"), ("waitlist", "show_id = $1"),
    ]

    /// What a listener hears when a move is done: the show, then `skmove;FROM;TO` (not a delta).
    static let moveNotice = "skmove;"

    /// The source's record of a move, before anything is copied.
    func recordMove(_ move: ShardMove) throws {
        _ = try withConnection { c in
            try c.run(
                "move_begin", "INSERT INTO shard_moves(move_id, show_id, from_shard, to_shard, moved_at, state) VALUES($1, $2, $3, $4, $5, 'copying')",
                [move.id, move.show, move.from, move.to, Self.now()])
        }
    }

    /// `MovingShard.settle`: the show's row locked, then the move's (every change of the show waits,
    /// then finds it gone and is refused; memory reloads it from its new shard).
    func settle(_ move: ShardMove, copy: ([String: String]) throws -> Void, discard: () throws -> Void) throws -> ShardMoveSettlement {
        try inMoveTransaction(move) { c, state, show in
            guard state == .copying else { return .alreadySettled(state) }
            let reason: PlacementError?
            if let show {
                let started = (Timestamp.milliseconds(show.startsAt) ?? 0) <= Int64(Date().timeIntervalSince1970 * 1000)
                reason = show.onSale && !show.cancelled && !started ? .onSale(show: move.show) : nil
            } else {
                reason = .unknownShow(move.show)
            }
            if let reason {
                try discard()
                try c.run("move_settle", "UPDATE shard_moves SET state = $2 WHERE move_id = $1", [move.id, ShardMoveState.rolledBack.rawValue])
                return .rolledBack(reason)
            }
            var rows: [String: String] = [:]
            for (table, filter) in Self.showTables {
                rows[table] = try c.run("move_read_" + table, "SELECT coalesce(json_agg(t), '[]')::text FROM \(table) t WHERE \(filter)", [move.show])
                    .text(0, 0)
            }
            try copy(rows)
            for (table, filter) in Self.showTables.reversed() where table != "holds" && table != "shows" {
                try c.run("move_delete_" + table, "DELETE FROM \(table) WHERE \(filter)", [move.show])
            }
            try c.run("move_delete_holds", "DELETE FROM holds WHERE show_id = $1", [move.show])
            try c.run("move_delete_show", "DELETE FROM shows WHERE id = $1", [move.show])
            try c.run("move_settle", "UPDATE shard_moves SET state = $2 WHERE move_id = $1", [move.id, ShardMoveState.sourceDeleted.rawValue])
            try c.run(
                "move_notify_done", "SELECT pg_notify($1 || '_' || current_schema(), $2)",
                [Self.channel, move.show + "\n" + Self.moveNotice + move.from + ";" + move.to])
            return .moved
        }
    }

    /// `MovingShard.abandon`: under the same locks as `settle`.
    func abandon(_ move: ShardMove, discard: () throws -> Void) throws -> ShardMoveState {
        try inMoveTransaction(move) { c, state, _ in
            guard state == .copying else { return state }
            try discard()
            try c.run("move_settle", "UPDATE shard_moves SET state = $2 WHERE move_id = $1", [move.id, ShardMoveState.rolledBack.rawValue])
            return .rolledBack
        }
    }

    /// `body` in one transaction holding the show's row (nil: none here) and the move's, committed
    /// when it returns, rolled back when it throws.
    private func inMoveTransaction<T>(
        _ move: ShardMove, _ body: (PostgresConnection, ShardMoveState, (onSale: Bool, cancelled: Bool, startsAt: String)?) throws -> T
    ) throws -> T {
        try withConnection { c in
            try c.execute("BEGIN")
            do {
                let row = try c.run("move_lock", "SELECT on_sale, cancelled_at, starts_at FROM shows WHERE id = $1 FOR UPDATE", [move.show])
                let recorded = try c.run("move_state", "SELECT state FROM shard_moves WHERE move_id = $1 FOR UPDATE", [move.id])
                guard recorded.rows.count == 1, let state = ShardMoveState(rawValue: recorded.text(0, 0)) else {
                    throw StoreError.conflict("\(move) is not recorded on shard \(move.from)")
                }
                let show = row.rows.isEmpty ? nil : (onSale: row.text(0, 0) == "t", cancelled: row.rows[0][1] != nil, startsAt: row.text(0, 2))
                let result = try body(c, state, show)
                try c.execute("COMMIT")
                return result
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The moves this shard is the source of that are still `copying`.
    func unsettledMoves() throws -> [ShardMove] {
        try withConnection { c in
            let r = try c.run("moves_unsettled", "SELECT move_id, show_id, from_shard, to_shard FROM shard_moves WHERE state = 'copying' ORDER BY moved_at")
            return r.rows.indices.map { ShardMove(id: r.text($0, 0), show: r.text($0, 1), from: r.text($0, 2), to: r.text($0, 3)) }
        }
    }

    /// The target's side: the show's rows replaced (what an earlier, unsettled attempt left of it here)
    /// and the move recorded `copied`, in one transaction. Every instance hears the show's id (read as
    /// a gap).
    func putIn(_ move: ShardMove, rows: [String: String]) throws {
        try withConnection { c in
            try c.execute("BEGIN")
            do {
                for (table, filter) in Self.showTables.reversed() { try c.run("move_clear_" + table, "DELETE FROM \(table) WHERE \(filter)", [move.show]) }
                for (table, _) in Self.showTables {
                    try c.run(
                        "move_write_" + table, "INSERT INTO \(table) SELECT * FROM json_populate_recordset(NULL::\(table), $1::json)",
                        [rows[table] ?? "[]"])
                }
                try c.run(
                    "move_copied",
                    "INSERT INTO shard_moves(move_id, show_id, from_shard, to_shard, moved_at, state) VALUES($1, $2, $3, $4, $5, 'copied') "
                        + "ON CONFLICT (move_id) DO UPDATE SET state = 'copied', moved_at = EXCLUDED.moved_at",
                    [move.id, move.show, move.from, move.to, Self.now()])
                try c.run("move_notify", "SELECT pg_notify($1 || '_' || current_schema(), $2)", [Self.channel, move.show])
                try c.execute("COMMIT")
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The target's side of a rollback: the move's copy deleted if it arrived, the move recorded
    /// `rolledBack`, in one transaction.
    func discardCopy(_ move: ShardMove) throws {
        try withConnection { c in
            try c.execute("BEGIN")
            do {
                let r = try c.run("move_copy_state", "SELECT state FROM shard_moves WHERE move_id = $1 FOR UPDATE", [move.id])
                if r.rows.count == 1 && r.text(0, 0) == ShardMoveState.copied.rawValue {
                    for (table, filter) in Self.showTables.reversed() {
                        try c.run("move_clear_" + table, "DELETE FROM \(table) WHERE \(filter)", [move.show])
                    }
                    try c.run("move_settle", "UPDATE shard_moves SET state = $2 WHERE move_id = $1", [move.id, ShardMoveState.rolledBack.rawValue])
                }
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
            let r = try c.run("moved_from", "SELECT DISTINCT from_shard FROM shard_moves WHERE state = 'copied'")
            return Set(r.rows.indices.map { r.text($0, 0) })
        }
    }
}
