/// The stores' schemas as SQL files (`Migrations/*.sql`, embedded in the binary when it is built, so a
/// server needs nothing beside it): each store's migrations in order, immutable once released, and a
/// baseline a new database starts from (the schema all of them build, in one step). A new migration is a
/// new file here and a new baseline; `MigrationTests` holds the baseline and the steps to one schema.
enum MigrationFiles {
    /// `PostgresStore`'s migrations; the version a database is at counts them (`schema_migrations`).
    static let postgres: [String] = [
        PackageResources.postgres_01_tables_sql, PackageResources.postgres_02_commit_function_sql,
        PackageResources.postgres_03_tokens_as_digests_sql, PackageResources.postgres_04_reservations_sql,
        PackageResources.postgres_05_show_log_sql, PackageResources.postgres_06_typed_refusals_sql,
        PackageResources.postgres_07_waiting_rooms_sql, PackageResources.postgres_08_batches_together_sql,
        PackageResources.postgres_09_seat_owners_sql, PackageResources.postgres_10_keys_set_wide_sql,
        PackageResources.postgres_11_one_hold_an_admission_sql, PackageResources.postgres_12_typed_arrays_sql,
        PackageResources.postgres_13_door_scans_sql, PackageResources.postgres_14_buyer_contacts_sql,
        PackageResources.postgres_15_lean_arrays_sql, PackageResources.postgres_16_show_groups_sql,
        PackageResources.postgres_17_admission_spent_sql, PackageResources.postgres_18_network_limits_sql,
        PackageResources.postgres_19_shard_moves_sql, PackageResources.postgres_20_change_rows_sql, PackageResources.postgres_21_payments_sql,
        PackageResources.postgres_22_payment_refunds_sql, PackageResources.postgres_23_webhooks_sql,
        PackageResources.postgres_24_webhook_events_sql, PackageResources.postgres_25_seasons_sql,
        PackageResources.postgres_26_real_names_sql, PackageResources.postgres_27_transfers_and_books_sql,
        PackageResources.postgres_28_refund_fees_sql, PackageResources.postgres_29_waitlists_sql,
        PackageResources.postgres_30_fair_entry_sql, PackageResources.postgres_31_waitlist_prepay_sql,
        PackageResources.postgres_32_staff_sql,
    ].map(text)
    static let postgresBaseline = text(PackageResources.postgres_baseline_sql)

    /// `SQLiteStore`'s migrations; the version a database is at counts them (`PRAGMA user_version`).
    static let sqlite: [String] = [
        PackageResources.sqlite_01_tables_sql, PackageResources.sqlite_02_tokens_as_digests_sql,
        PackageResources.sqlite_03_reservations_sql, PackageResources.sqlite_04_show_log_sql,
        PackageResources.sqlite_05_waiting_rooms_sql, PackageResources.sqlite_06_one_hold_an_admission_sql,
        PackageResources.sqlite_07_door_scans_sql, PackageResources.sqlite_08_buyer_contacts_sql,
        PackageResources.sqlite_09_admission_spent_sql, PackageResources.sqlite_10_network_limits_sql, PackageResources.sqlite_11_payments_sql,
        PackageResources.sqlite_12_payment_refunds_sql, PackageResources.sqlite_13_webhooks_sql,
        PackageResources.sqlite_14_webhook_events_sql, PackageResources.sqlite_15_seasons_sql, PackageResources.sqlite_16_real_names_sql,
        PackageResources.sqlite_17_transfers_and_books_sql, PackageResources.sqlite_18_refund_fees_sql,
        PackageResources.sqlite_19_waitlists_sql, PackageResources.sqlite_20_fair_entry_sql,
        PackageResources.sqlite_21_waitlist_prepay_sql, PackageResources.sqlite_22_staff_sql,
    ].map(text)
    static let sqliteBaseline = text(PackageResources.sqlite_baseline_sql)

    /// The migration whose data step rewrites tokens kept in the clear as their digests (both stores'
    /// third and second: `…-tokens-as-digests.sql`).
    static let postgresTokenDigests = 3, sqliteTokenDigests = 2

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
