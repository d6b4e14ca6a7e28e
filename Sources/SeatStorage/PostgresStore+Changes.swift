import Foundation
import SeatDomain

/// Migration 20: a batch written whole is one `seatkit_change[]`, each change a composite with its
/// holds, claims, freed and sold seats inside it, sent in the binary format. Migration 11 had replaced
/// one jsonb document (parsed, then searched key by key in every statement: 11 % of the database's
/// CPU a hold + release) with 37 parallel arrays; the composite keeps the binary format and gives each
/// field its name again. A refusal is raised: nothing of the batch is written, and the instance sends
/// it again, as jsonb, to `seatkit_commit`, which says which change is refused and why.
extension PostgresStore {
    /// The composite types `seatkit_write` takes, whose OIDs the binary format carries.
    static let changeTypes = ["seatkit_change", "seatkit_hold", "seatkit_hold[]", "seatkit_claim", "seatkit_claim[]", "seatkit_key"]

    /// The call, its batch bound in the binary format.
    static let writeCall = "SELECT seatkit_write($1::boolean, $2::seatkit_change[])"

    /// `batch` (in show order: `showOrder`) as the `seatkit_change[]` the function takes; `bodies` are
    /// the changes' delta bodies, in the same order.
    /// - Complexity: O(n) in the changes, holds and seats of the batch.
    static func changeRows(_ batch: [StoreCommit], bodies: [String], now: Int64) -> PostgresValue {
        .rows(
            "seatkit_change",
            batch.enumerated().map { k, c in
                let key: PostgresValue =
                    c.idempotency.map {
                        .row(
                            "seatkit_key",
                            [.text($0.key), .text($0.requestFingerprint), .int4(Int32($0.status)), .text(String(decoding: $0.body, as: UTF8.self))])
                    } ?? .null("seatkit_key")
                let holds = c.holds.map { h -> PostgresValue in
                    .row(
                        "seatkit_hold",
                        [
                            .text(h.id), .text(h.tokenDigest), .text(h.showID), .text(h.state.rawValue), .int8(h.expiresAt), .bool(h.extended),
                            .text(h.orderRef), .bool(h.wheelchair), .int8(h.createdAt), .text(h.kind.rawValue), .text(h.reason),
                            .text(h.operatorName), .text(h.payment), .text(h.prices), .text(h.admission),
                        ])
                }
                let claims = c.insert.map { PostgresValue.row("seatkit_claim", [.int4(Int32($0.seat)), .text($0.status.name), .text($0.holdID)]) }
                return .row(
                    "seatkit_change",
                    [
                        .text(c.showID), .text(bodies[k]), .int8(now), .text(c.log.action), .text(c.log.holdID), .text(c.log.operatorName),
                        .text(c.log.reason), .text(c.log.orderRef), key, .rows("seatkit_hold", holds), .ints(c.delete.map { Int32($0) }),
                        .rows("seatkit_claim", claims), .ints(c.sell.map { Int32($0) }),
                    ])
            })
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
        "SELECT seatkit_write(\(durable), " + changeRows(batch, bodies: batch.map(deltaBody), now: 1).sql + ");"
    }
}
