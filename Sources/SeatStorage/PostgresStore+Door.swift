import SeatDomain

/// The door in the shared store: two instances' gates scanning one ticket at once meet on its
/// presence row (`INSERT … ON CONFLICT … WHERE inside = 0` waits for the other's row lock, then finds
/// the ticket in), so it is let in once. A scan commits durably (`synchronous_commit` stays on).
extension PostgresStore: DoorStore {
    public var door: (any DoorStore)? { self }

    public func checkIn(_ scan: CheckInScan) throws -> CheckInOutcome {
        try withConnection { c in
            try c.execute("BEGIN")
            do {
                func one(_ name: String, _ sql: String, _ parameters: [String?]) throws -> CheckInScan? {
                    let r = try c.run(name, QueueSchema.numbered(sql), parameters)
                    return r.rows.first.map { row in DoorSchema.scan(show: scan.showID, row.map { $0 ?? "" }) }
                }
                let outcome: CheckInOutcome?
                if let earlier = try one("door_nonce", DoorSchema.findNonce, [scan.showID, scan.nonce]) {
                    outcome = .recorded(earlier, replay: true)
                } else {
                    switch scan.direction {
                    case .in:
                        let entered = try c.run(
                            "door_enter", QueueSchema.numbered(DoorSchema.enter),
                            [scan.showID, scan.ticketID, String(scan.seat), scan.nonce, scan.gate, scan.operatorName, String(scan.at)])
                        // In already; by this very scan when a retry raced its first try (same nonce).
                        outcome =
                            entered.rows.isEmpty
                            ? try one("door_presence", DoorSchema.presence, [scan.showID, scan.ticketID]).map {
                                $0.nonce == scan.nonce ? .recorded($0, replay: true) : .alreadyIn($0)
                            } : nil
                    case .out:
                        let left = try c.run(
                            "door_leave", QueueSchema.numbered(DoorSchema.leave),
                            [scan.nonce, scan.gate, scan.operatorName, String(scan.at), scan.showID, scan.ticketID])
                        outcome = left.rows.isEmpty ? .notInside(try one("door_presence", DoorSchema.presence, [scan.showID, scan.ticketID])) : nil
                    }
                }
                if let outcome {
                    try c.execute("COMMIT")
                    return outcome
                }
                try c.run(
                    "door_record", QueueSchema.numbered(DoorSchema.record),
                    [
                        scan.showID, scan.nonce, scan.ticketID, String(scan.seat), scan.direction.rawValue, scan.gate, scan.operatorName, String(scan.at),
                        scan.showID,
                    ])
                // A ticket let in is a webhook event, written with the scan (checkin.accepted).
                if scan.direction == .in { try record([OutboxEvent.checkIn(scan, at: OutboxEvent.now())], c) }
                try c.execute("COMMIT")
                return .recorded(scan, replay: false)
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func recentScans(show: String, limit: Int) throws -> [CheckInScan] {
        try withConnection { c in
            let r = try c.run("door_recent", QueueSchema.numbered(DoorSchema.recentScans), [show, String(limit)])
            return r.rows.map { row in DoorSchema.scan(show: show, row.map { $0 ?? "" }) }
        }
    }

    public func seatSales(show: String, seat: Int) throws -> SeatSales {
        try withConnection { c in
            let current = try c.run("door_current_sale", QueueSchema.numbered(DoorSchema.currentSale), [show, String(seat)])
            let refunded = try c.run("door_refunded_sales", QueueSchema.numbered(DoorSchema.refundedSales), [show, String(seat)])
            let row = current.rows.first
            var sales = SeatSales(current: row?[0] ?? nil, refunded: refunded.rows.compactMap { $0[0] }, identity: row?[1] ?? nil, attendee: row?[2] ?? nil)
            if sales.identity != nil, let sale = sales.current {
                let n = try c.run("door_generation", QueueSchema.numbered(DoorSchema.generation), [show, String(seat), sale])
                sales.generation = Int(n.rows.first?[0] ?? "0") ?? 0
            }
            return sales
        }
    }

    public func checkInCounts(show: String) throws -> CheckInCounts {
        try withConnection { c in
            let r = try c.run("door_counts", QueueSchema.numbered(DoorSchema.countsByGate), [show])
            let inside = try c.run("door_inside", QueueSchema.numbered(DoorSchema.insideCount), [show])
            return DoorSchema.counts(
                r.rows.indices.map { (r.text($0, 0), r.text($0, 1), Int(r.int($0, 2))) }, inside: Int(inside.int(0, 0)), came: Int(inside.int(0, 1)))
        }
    }
}
