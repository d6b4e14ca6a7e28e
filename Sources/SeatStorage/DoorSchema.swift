import SeatDomain

/// The door's statements over its tables (`Migrations/*-door-scans.sql`, alike in both stores):
/// a ticket's presence, one row a ticket that only flips between out and in, so two gates scanning one
/// ticket at once meet on its primary key and one of them wins; and every recorded scan, keyed by its
/// nonce so a retried scan is recorded once.
enum DoorSchema {
    static let scanColumns = "ticket_id, seat, direction, gate, operator, nonce, at"
    static let findNonce = "SELECT \(scanColumns) FROM checkins WHERE show_id = ? AND nonce = ?"
    /// In: the presence row inserted, or flipped from out; nothing returned when it is in already.
    static let enter = """
        INSERT INTO ticket_presence(show_id, ticket_id, inside, seat, nonce, gate, operator, at) VALUES(?, ?, 1, ?, ?, ?, ?, ?)
        ON CONFLICT(show_id, ticket_id) DO UPDATE SET inside = 1, seat = excluded.seat, nonce = excluded.nonce, gate = excluded.gate,
          operator = excluded.operator, at = excluded.at
        WHERE ticket_presence.inside = 0 RETURNING inside
        """
    /// Out: flipped from in; nothing returned when it is not in.
    static let leave = """
        UPDATE ticket_presence SET inside = 0, nonce = ?, gate = ?, operator = ?, at = ? WHERE show_id = ? AND ticket_id = ? AND inside = 1
        RETURNING inside
        """
    /// The presence row as a scan: the last one that changed it.
    static let presence =
        "SELECT ticket_id, seat, CASE WHEN inside = 1 THEN 'in' ELSE 'out' END, gate, operator, nonce, at FROM ticket_presence WHERE show_id = ? AND ticket_id = ?"
    /// The scan numbered after the show's last (its index finds that one): a ticket's scans, which its
    /// presence row takes in turns, are numbered in the order they were decided.
    static let record = """
        INSERT INTO checkins(show_id, nonce, ticket_id, seat, direction, gate, operator, at, seq)
        SELECT ?, ?, ?, ?, ?, ?, ?, ?, coalesce(max(seq), 0) + 1 FROM checkins WHERE show_id = ?
        """
    static let countsByGate = "SELECT gate, direction, count(*) FROM checkins WHERE show_id = ? GROUP BY gate, direction ORDER BY gate"
    static let recentScans = "SELECT \(scanColumns) FROM checkins WHERE show_id = ? ORDER BY seq DESC LIMIT ?"
    static let currentSale = "SELECT hold_id, identity, attendee FROM claims WHERE show_id = ? AND seat = ? AND status = 'sold'"
    /// A bound seat's ticket generation: its sale's transfers and first binding.
    static let generation = "SELECT count(*) FROM ticket_transfers WHERE show_id = ? AND seat = ? AND hold_id = ?"
    static let refundedSales =
        "SELECT r.hold_id FROM refunds r JOIN holds h ON h.id = r.hold_id WHERE h.show_id = ? AND r.seat = ? ORDER BY r.refunded_at, r.hold_id"
    /// Tickets inside now, and every ticket that went in (a presence row is made only by going in).
    static let insideCount = "SELECT coalesce(sum(inside), 0), count(*) FROM ticket_presence WHERE show_id = ?"

    /// The counts from `countsByGate`'s rows.
    static func counts(_ rows: [(gate: String, direction: String, n: Int)], inside: Int, came: Int) -> CheckInCounts {
        var gates: [(gate: String, entered: Int, left: Int)] = []
        for r in rows {
            if gates.last?.gate != r.gate { gates.append((r.gate, 0, 0)) }
            if r.direction == "in" { gates[gates.count - 1].entered += r.n } else { gates[gates.count - 1].left += r.n }
        }
        return CheckInCounts(gates: gates, inside: inside, came: came)
    }

    static func scan(show: String, _ f: [String]) -> CheckInScan {
        CheckInScan(
            showID: show, ticketID: f[0], seat: Int(f[1]) ?? 0, direction: CheckInScan.Direction(rawValue: f[2]) ?? .in, gate: f[3], operatorName: f[4],
            nonce: f[5], at: Int64(f[6]) ?? 0)
    }
}
