import Foundation
import SeatSecrets

/// The embedded store's schema, as migrations applied once each in order (the PostgreSQL store's
/// schema is checked against it by `sqliteAndPostgresHaveTheSameTablesColumnsAndKeys`).
extension SQLiteStore {
    /// Schema migrations, each applied once in order (the version is kept in `PRAGMA user_version`).
    static let migrations: [String] = [
        """
        CREATE TABLE venues(id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, layout BLOB NOT NULL, created_at INTEGER NOT NULL);
        CREATE TABLE shows(id TEXT PRIMARY KEY, venue_id TEXT NOT NULL REFERENCES venues(id), starts_at TEXT NOT NULL,
                           prices TEXT NOT NULL, policy TEXT NOT NULL, hold_seconds INTEGER NOT NULL, version INTEGER NOT NULL);
        CREATE TABLE holds(id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, show_id TEXT NOT NULL REFERENCES shows(id),
                           state TEXT NOT NULL CHECK(state IN ('active','released','expired','confirmed')),
                           expires_at INTEGER NOT NULL, extended INTEGER NOT NULL, order_ref TEXT, wheelchair INTEGER NOT NULL,
                           created_at INTEGER NOT NULL);
        CREATE INDEX holds_active ON holds(state) WHERE state = 'active';
        CREATE TABLE claims(show_id TEXT NOT NULL REFERENCES shows(id), seat INTEGER NOT NULL,
                            status TEXT NOT NULL CHECK(status IN ('held','sold','blocked')), hold_id TEXT REFERENCES holds(id),
                            PRIMARY KEY(show_id, seat)) WITHOUT ROWID;
        CREATE TABLE events(show_id TEXT NOT NULL, version INTEGER NOT NULL, delta TEXT NOT NULL, created_at INTEGER NOT NULL,
                            PRIMARY KEY(show_id, version)) WITHOUT ROWID;
        CREATE TABLE idempotency(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body BLOB NOT NULL,
                                 created_at INTEGER NOT NULL);
        """,
        // 2: tokens kept as digests (`Secrets.tokenDigest`, rewritten by `hashPlainTokens`); kept answers
        // from before were in the clear (with their hold tokens) and keyed by the client's key: dropped.
        "DELETE FROM idempotency;",
        // 3: box-office reservations are holds of another kind, with the reason and who made them.
        """
        ALTER TABLE holds ADD COLUMN kind TEXT NOT NULL DEFAULT 'buyer' CHECK(kind IN ('buyer','blocked','house','counter'));
        ALTER TABLE holds ADD COLUMN reason TEXT;
        ALTER TABLE holds ADD COLUMN operator TEXT;
        ALTER TABLE holds ADD COLUMN payment TEXT;
        CREATE INDEX holds_order ON holds(order_ref) WHERE order_ref IS NOT NULL;
        CREATE TABLE refunds(hold_id TEXT NOT NULL REFERENCES holds(id), seat INTEGER NOT NULL, refunded_at INTEGER NOT NULL,
                             reason TEXT NOT NULL, operator TEXT NOT NULL, PRIMARY KEY(hold_id, seat)) WITHOUT ROWID;
        """,
        // 4: shows that change after on-sale (prices by revision, details, on-sale, cancelled), what each
        // hold's seats cost, and the show's log: the event log with who did what and why, kept with the
        // show (the old event log becomes its first lines; one table, so a change is one insert: a second
        // copy of every delta cost the writer 19 % more CPU a hold).
        """
        ALTER TABLE shows ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE shows ADD COLUMN on_sale INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE shows ADD COLUMN cancelled_at INTEGER;
        ALTER TABLE shows ADD COLUMN price_revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE shows ADD COLUMN earlier_prices TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE holds ADD COLUMN prices TEXT;
        ALTER TABLE refunds ADD COLUMN returned_to TEXT;
        CREATE TABLE show_log(show_id TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER NOT NULL, action TEXT NOT NULL,
                              hold_id TEXT, operator TEXT, reason TEXT, order_ref TEXT, delta TEXT NOT NULL,
                              PRIMARY KEY(show_id, version)) WITHOUT ROWID;
        INSERT INTO show_log(show_id, version, created_at, action, delta) SELECT show_id, version, created_at, 'change', delta FROM events;
        DROP TABLE events;
        """,
        // 5: the shows' waiting rooms (`QueueStore`): the room's settings and shared state, a row a
        // buyer (digests of the entry id and the address, never either), each row stamped with the
        // room's revision it was last written at so an instance reads only what changed.
        QueueSchema.sqlite,
        // 6: an admission has one active hold at a time (a hold made with one names its room's entry).
        HoldAdmissionSchema.sqlite,
        // 7: the door's scans (`DoorSchema`).
        DoorSchema.sqlite,
        // 8: buyers' names and phones given with counter sales (`ContactSchema`).
        ContactSchema.sqlite,
        // 9: an admission is one purchase: its confirmed hold keeps it from holding again.
        HoldAdmissionSchema.spent,
        // 10: a waiting room's places a network and arrivals a second (`QueueSchema.networkLimits`).
        QueueSchema.networkLimits,
    ]

    static func migrate(_ db: SQLiteDatabase) throws {
        var version = 0
        try db.query("PRAGMA user_version") { version = Int($0.int(0)) }
        for (k, sql) in Self.migrations.enumerated() where k >= version {
            try db.transaction {
                try db.execute(sql)
                if k == 1 { try hashPlainTokens(db) }
                try db.execute("PRAGMA user_version = \(k + 1)")
            }
        }
    }

    /// Migration 2's data step: every token stored in the clear by an older version becomes its digest.
    static func hashPlainTokens(_ db: SQLiteDatabase) throws {
        var plain: [(String, String)] = []
        try db.query("SELECT id, token FROM holds WHERE length(token) <> \(Secrets.tokenDigestLength)") { plain.append(($0.text(0), $0.text(1))) }
        for (id, token) in plain { try db.run("UPDATE holds SET token = ? WHERE id = ?", [.text(Secrets.tokenDigest(token)), .text(id)]) }
    }
}
