import Foundation
import SeatDomain

/// An admission has one active hold at a time: a hold made while a show's waiting room was on names
/// its room's entry, and a unique index over active holds refuses a second one, whichever instance
/// makes it (a bot with one admission held seats a hold after another, each up to the show's limit).
/// Embedded store's migration 6, shared store's migration 10.
enum HoldAdmissionSchema {
    static let sqlite = """
        ALTER TABLE holds ADD COLUMN admission TEXT;
        CREATE UNIQUE INDEX \(StoreError.admissionIndex) ON holds(show_id, admission) WHERE state = 'active' AND admission IS NOT NULL;
        """

    static let postgres = """
        ALTER TABLE holds ADD COLUMN admission TEXT;
        ALTER TABLE holds ALTER COLUMN admission SET STATISTICS 0;
        CREATE UNIQUE INDEX \(StoreError.admissionIndex) ON holds(show_id, admission) WHERE state = 'active' AND admission IS NOT NULL;
        """

    /// An admission is one purchase: a hold confirmed with it keeps it from holding again (30 holds and
    /// 301 seats were bought with one admission in a minute, hold → confirm repeated), so the unique
    /// index covers confirmed holds too. Holds made twice with one admission before this (the bug) keep
    /// their sales; all but each admission's first lose its name, which only the index reads.
    /// Embedded store's migration 9, shared store's migration 16.
    static let spent = """
        UPDATE holds SET admission = NULL WHERE admission IS NOT NULL AND state IN ('active', 'confirmed') AND EXISTS (
          SELECT 1 FROM holds AS first WHERE first.show_id = holds.show_id AND first.admission = holds.admission
            AND first.state IN ('active', 'confirmed') AND (first.created_at < holds.created_at OR (first.created_at = holds.created_at AND first.id < holds.id)));
        DROP INDEX \(StoreError.admissionIndex);
        CREATE UNIQUE INDEX \(StoreError.admissionIndex) ON holds(show_id, admission) WHERE state IN ('active', 'confirmed') AND admission IS NOT NULL;
        """
}

extension PostgresStore {
    /// Migration 10's functions: migration 9's, writing the hold's admission with it.
    static let admissionFunctions: String = {
        let columns = (
            "INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices)",
            "INSERT INTO holds(id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission)"
        )
        let together = edited(
            keysTogetherFunction, migration: 10,
            [columns, ("h->>'operator', h->>'payment', h->>'prices'\n", "h->>'operator', h->>'payment', h->>'prices', h->>'admission'\n")])
        let commit = edited(
            keysCommitFunction, migration: 10,
            [columns, ("h->>'operator', h->>'payment', h->>'prices')", "h->>'operator', h->>'payment', h->>'prices', h->>'admission')")])
        return together + "\n" + commit
    }()
}
