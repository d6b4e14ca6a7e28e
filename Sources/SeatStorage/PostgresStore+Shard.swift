import Foundation

/// A shard's name kept in its own database (one row), so a database listed under another shard's name
/// is refused: its records' identifiers (`h_east.…`) say which shard they are on.
extension PostgresStore {
    /// Claims `name` for this database when it has none; throws `ShardIdentityError` when it has another.
    func claimShardName(_ name: String) throws {
        try withConnection { c in
            try c.run("claim_shard", "INSERT INTO shard_identity(name, claimed_at) VALUES($1, $2) ON CONFLICT (one) DO NOTHING", [name, Self.now()])
            let said = try c.run("shard_name", "SELECT name FROM shard_identity").text(0, 0)
            if said != name { throw ShardIdentityError(listedAs: name, databaseSays: said, url: url) }
        }
    }

    /// One round trip: whether the database answers.
    public func ping() throws {
        _ = try withConnection { try $0.run("ping", "SELECT 1") }
    }
}

extension PostgresStore {
    /// Each venue's id and fingerprint (what a shard missing one is told to copy).
    func venueIDsAndFingerprints() throws -> [String: String] {
        try withConnection { c in
            let r = try c.run("venue_ids", "SELECT id, fingerprint FROM venues")
            return Dictionary(uniqueKeysWithValues: r.rows.indices.map { (r.text($0, 0), r.text($0, 1)) })
        }
    }

    /// One venue's fingerprint and layout.
    func venue(id: String) throws -> (fingerprint: String, layout: [UInt8])? {
        try withConnection { c in
            let r = try c.run("venue_by_id", "SELECT fingerprint, layout FROM venues WHERE id = $1", [id])
            return r.rows.isEmpty ? nil : (r.text(0, 0), Array(r.text(0, 1).utf8))
        }
    }
}
