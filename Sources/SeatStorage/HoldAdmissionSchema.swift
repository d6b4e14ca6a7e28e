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
