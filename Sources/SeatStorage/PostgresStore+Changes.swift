import Foundation
import SeatDomain

/// Migration 20: a batch written whole is one `seatkit_change[]`, each change a composite with its
/// holds, claims, freed and sold seats inside it, sent in the binary format. Migration 11 had replaced
/// one jsonb document (parsed, then searched key by key in every statement: 11 % of the database's
/// CPU a hold + release) with 37 parallel arrays; the composite keeps the binary format and gives each
/// field its name again. A refusal is raised: nothing of the batch is written, and the instance sends
/// it again, as jsonb, to `seatkit_commit`, which says which change is refused and why.
extension PostgresStore {
    /// The call, its batch bound in the binary format.
    static let writeCall = "SELECT seatkit_write($1::boolean, $2::seatkit_change[])"

    /// `batch` (in show order: `showOrder`) as the `seatkit_change[]` the function takes, into `w`;
    /// `bodies` are the changes' delta bodies, in the same order. Each composite's fields in its type's
    /// order (migration 20).
    /// - Complexity: O(n) in the changes, holds and seats of the batch.
    static func writeChanges<W: PostgresValueWriter>(_ batch: [StoreCommit], bodies: [String], now: Int64, into w: inout W) {
        w.rows(.change, count: batch.count) { w in
            for (k, c) in batch.enumerated() {
                w.row(.change, fields: 13) { w in
                    w.text(c.showID); w.text(bodies[k]); w.int8(now)
                    w.text(c.log.action); w.text(c.log.holdID); w.text(c.log.operatorName); w.text(c.log.reason); w.text(c.log.orderRef)
                    if let r = c.idempotency {
                        w.row(.key, fields: 4) { w in
                            w.text(r.key); w.text(r.requestFingerprint); w.int4(Int32(r.status)); w.text(String(decoding: r.body, as: UTF8.self))
                        }
                    } else {
                        w.null(.key)
                    }
                    w.rows(.hold, count: c.holds.count) { w in
                        for h in c.holds {
                            w.row(.hold, fields: 15) { w in
                                w.text(h.id); w.text(h.tokenDigest); w.text(h.showID); w.text(h.state.rawValue); w.int8(h.expiresAt)
                                w.bool(h.extended); w.text(h.orderRef); w.bool(h.wheelchair); w.int8(h.createdAt); w.text(h.kind.rawValue)
                                w.text(h.reason); w.text(h.operatorName); w.text(h.payment); w.text(h.prices); w.text(h.admission)
                            }
                        }
                    }
                    w.ints(c.delete.map { Int32($0) })
                    w.rows(.claim, count: c.insert.count) { w in
                        for claim in c.insert {
                            w.row(.claim, fields: 5) { w in
                                w.int4(Int32(claim.seat)); w.text(claim.status.name); w.text(claim.holdID)
                                w.text(claim.identity); w.text(claim.attendee)
                            }
                        }
                    }
                    w.ints(c.sell.map { Int32($0) })
                }
            }
        }
    }

    /// `batch` in the binary format, for a session whose composite types' OIDs are `oids`.
    static func changesBinary(_ batch: [StoreCommit], bodies: [String], now: Int64, oids: [PostgresComposite: (type: UInt32, array: UInt32)])
        -> [UInt8]
    {
        var w = PostgresBinaryWriter(oids: oids, capacity: 64 + batch.count * 400)
        writeChanges(batch, bodies: bodies, now: now, into: &w)
        return w.value
    }

    /// The batch's indices in the order every instance locks shows: by show id's bytes (PostgreSQL's
    /// `COLLATE "C"`, which `seatkit_write` checks), then as queued.
    static func showOrder(_ batch: [StoreCommit]) -> [Int] {
        batch.indices.sorted {
            batch[$0].showID.utf8.elementsEqual(batch[$1].showID.utf8) ? $0 < $1 : batch[$0].showID.utf8.lexicographicallyPrecedes(batch[$1].showID.utf8)
        }
    }

    /// The SQL that writes `batch` (already in show order) whole, as text: what the server sends, for
    /// pgbench (which sends text).
    public static func writeCall(_ batch: [StoreCommit], durable: Bool) -> String {
        var w = PostgresSQLWriter()
        writeChanges(batch, bodies: batch.map(deltaBody), now: 1, into: &w)
        return "SELECT seatkit_write(\(durable), " + w.sql + ");"
    }
}
