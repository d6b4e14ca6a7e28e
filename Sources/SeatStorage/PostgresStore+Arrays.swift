import Foundation
import SeatDomain

/// Migration 11: a batch written whole arrives as typed arrays, a column of the batch each, in the
/// binary format, in place of one jsonb document. The database parsed that document (jsonb's parser
/// and its sorting of keys: 11 % of its CPU a hold + release), then expanded it again and looked each
/// field up by name in every statement; the instance spent 4 % of the machine escaping it. What the
/// function checks and writes is migration 10's `seatkit_write_together`, statement for statement.
/// A refusal is raised: nothing of the batch is written, and the instance sends it again, as jsonb, to
/// `seatkit_commit`, which writes it change by change and says which change is refused and why.
extension PostgresStore {
    /// The batch's columns, in the function's parameter order. A change is numbered from 1 in batch
    /// order; a hold, claim, freed or sold seat names its change by that number.
    struct BatchColumns {
        var parameters: [PostgresArray]

        /// - Complexity: O(n) in the changes, holds and seats of the batch.
        init(_ batch: [StoreCommit], bodies: [String], now: Int64) {
            var show: [String?] = [], body: [String?] = [], at: [Int64] = []
            var action: [String?] = [], logHold: [String?] = [], logOperator: [String?] = [], logReason: [String?] = [], logOrder: [String?] = []
            var keyChange: [Int32] = [], key: [String?] = [], fingerprint: [String?] = [], status: [Int32] = [], answer: [String?] = []
            var hChange: [Int32] = [], hID: [String?] = [], hToken: [String?] = [], hShow: [String?] = [], hState: [String?] = []
            var hExpires: [Int64] = [], hExtended: [Bool] = [], hOrder: [String?] = [], hWheelchair: [Bool] = [], hCreated: [Int64] = []
            var hKind: [String?] = [], hReason: [String?] = [], hOperator: [String?] = [], hPayment: [String?] = [], hPrices: [String?] = []
            var hAdmission: [String?] = []
            var dChange: [Int32] = [], dSeat: [Int32] = [], iChange: [Int32] = [], iSeat: [Int32] = [], iStatus: [String?] = []
            var iHold: [String?] = [], sChange: [Int32] = [], sSeat: [Int32] = []
            for (k, c) in batch.enumerated() {
                let n = Int32(k + 1)
                show.append(c.showID); body.append(bodies[k]); at.append(now)
                action.append(c.log.action); logHold.append(c.log.holdID); logOperator.append(c.log.operatorName)
                logReason.append(c.log.reason); logOrder.append(c.log.orderRef)
                if let r = c.idempotency {
                    keyChange.append(n); key.append(r.key); fingerprint.append(r.requestFingerprint); status.append(Int32(r.status))
                    answer.append(String(decoding: r.body, as: UTF8.self))
                }
                for h in c.holds {
                    hChange.append(n); hID.append(h.id); hToken.append(h.tokenDigest); hShow.append(h.showID); hState.append(h.state.rawValue)
                    hExpires.append(h.expiresAt); hExtended.append(h.extended); hOrder.append(h.orderRef); hWheelchair.append(h.wheelchair)
                    hCreated.append(h.createdAt); hKind.append(h.kind.rawValue); hReason.append(h.reason); hOperator.append(h.operatorName)
                    hPayment.append(h.payment); hPrices.append(h.prices); hAdmission.append(h.admission)
                }
                for seat in c.delete { dChange.append(n); dSeat.append(Int32(seat)) }
                for claim in c.insert { iChange.append(n); iSeat.append(Int32(claim.seat)); iStatus.append(claim.status.name); iHold.append(claim.holdID) }
                for seat in c.sell { sChange.append(n); sSeat.append(Int32(seat)) }
            }
            parameters = [
                .text(show), .text(body), .bigint(at), .text(action), .text(logHold), .text(logOperator), .text(logReason), .text(logOrder),
                .integer(keyChange), .text(key), .text(fingerprint), .integer(status), .text(answer),
                .integer(hChange), .text(hID), .text(hToken), .text(hShow), .text(hState), .bigint(hExpires), .boolean(hExtended),
                .text(hOrder), .boolean(hWheelchair), .bigint(hCreated), .text(hKind), .text(hReason), .text(hOperator), .text(hPayment),
                .text(hPrices), .text(hAdmission),
                .integer(dChange), .integer(dSeat), .integer(iChange), .integer(iSeat), .text(iStatus), .text(iHold),
                .integer(sChange), .integer(sSeat),
            ]
        }

        /// The call with `durable` as its first parameter and these columns after it, cast to their types.
        static let call: String = {
            let types = PostgresStore.arraysSignature.enumerated().map { "$\($0.offset + 2)::\($0.element.type)" }
            return "SELECT seatkit_write_arrays($1::boolean, " + types.joined(separator: ", ") + ")"
        }()

        /// The same call with every column written as a literal (pgbench sends text).
        func literalCall(durable: Bool) -> String {
            let columns = zip(parameters, PostgresStore.arraysSignature).map { "'\(SQLText.literal($0.0.literal))'::\($0.1.type)" }
            return "SELECT seatkit_write_arrays(\(durable), " + columns.joined(separator: ", ") + ");"
        }
    }

    /// The SQL that writes `batch` (already in show order) whole, every column a literal: what the
    /// server sends, for pgbench (which sends text).
    public static func arraysCall(_ batch: [StoreCommit], durable: Bool) -> String {
        BatchColumns(batch, bodies: batch.map(deltaBody), now: 1).literalCall(durable: durable)
    }

    /// The function's array parameters, in order: names and types.
    static let arraysSignature: [(name: String, type: String)] = {
        let text = "text[]", bigint = "bigint[]", int = "int[]", bool = "boolean[]"
        return [
            ("c_show", text), ("c_body", text), ("c_now", bigint), ("l_action", text), ("l_hold", text), ("l_operator", text),
            ("l_reason", text), ("l_order", text),
            ("k_change", int), ("k_key", text), ("k_fingerprint", text), ("k_status", int), ("k_body", text),
            ("h_change", int), ("h_id", text), ("h_token", text), ("h_show", text), ("h_state", text), ("h_expires", bigint),
            ("h_extended", bool), ("h_order", text), ("h_wheelchair", bool), ("h_created", bigint), ("h_kind", text), ("h_reason", text),
            ("h_operator", text), ("h_payment", text), ("h_prices", text), ("h_admission", text),
            ("d_change", int), ("d_seat", int), ("i_change", int), ("i_seat", int), ("i_status", text), ("i_hold", text),
            ("s_change", int), ("s_seat", int),
        ]
    }()
}
