import Foundation

/// Migration 8: a seat is released or sold only by the hold that has it. An instance releases a hold
/// it knows as memory has it, without reading it from the store first (that read was 35 % of the
/// database's CPU a hold + release); if another instance changed the hold meanwhile, memory's seats
/// may be stale, and a seat that left the hold (perhaps now another buyer's) must not be freed with
/// it. Each freed or sold claim must belong to its change's hold; with "a hold that ends keeps no held
/// seat", a stale view of a hold is refused whichever way it is stale.
extension PostgresStore {
    /// Migration 8's `seatkit_commit`: migration 7's, with each deleted or sold claim one of the
    /// change's holds'.
    static let ownersCommitFunction: String = {
        let owned = " AND hold_id IN (SELECT value->>'id' FROM jsonb_array_elements(c->'holds'))"
        let edits = [
            (
                "AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'delete'));",
                "AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'delete'))" + owned + ";"
            ),
            (
                "AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'sell'));",
                "AND seat IN (SELECT value::int FROM jsonb_array_elements_text(c->'sell'))" + owned + ";"
            ),
        ]
        return edited(expiryGuardCommitFunction, migration: 8, edits)
    }()

    /// Migration 8's `seatkit_write_together`: migration 7's, with each seat freed or sold paired with
    /// its change's hold (`writesTogether` keeps changes that free or sell seats to one hold each). The
    /// pairs filter rows the primary key already found (`seat = ANY(seats)`): no extra index read.
    static let ownersTogetherFunction: String = {
        guard let end = togetherCommitFunction.range(of: "CREATE FUNCTION seatkit_commit_together") else {
            preconditionFailure("migration 8: migration 7 no longer defines seatkit_commit_together")
        }
        let edits = [
            ("CREATE FUNCTION seatkit_write_together", "CREATE OR REPLACE FUNCTION seatkit_write_together"),
            ("one_show text; seats int[];", "one_show text; seats int[]; owners text[];"),
            (
                "FOR one_show, seats IN SELECT c->>'show', array_agg(s::int) FROM",
                "FOR one_show, seats, owners IN SELECT c->>'show', array_agg(s::int), array_agg(c->'holds'->0->>'id') FROM"
            ),
            (
                "seat = ANY(seats) AND status IN ('held', 'blocked');",
                "seat = ANY(seats) AND status IN ('held', 'blocked')\n              AND (seat, hold_id) IN (SELECT * FROM unnest(seats, owners));"
            ),
        ]
        return edited(String(togetherCommitFunction[..<end.lowerBound]), migration: 8, edits)
    }()
}
