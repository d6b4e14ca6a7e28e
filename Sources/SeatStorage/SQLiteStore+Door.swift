import SeatDomain

/// The door in the embedded store: one connection, so a scan's transaction is the only one running;
/// a recorded scan is flushed before it is answered (as a confirmation is).
extension SQLiteStore: DoorStore {
    public var door: (any DoorStore)? { self }

    public func checkIn(_ scan: CheckInScan) throws -> CheckInOutcome {
        let outcome = try locked { db -> CheckInOutcome in
            let fullSync = syncer == nil
            if fullSync { try db.execute("PRAGMA synchronous=FULL") }
            defer { if fullSync { try? db.execute("PRAGMA synchronous=NORMAL") } }
            return try db.transaction { () throws -> CheckInOutcome in
                func one(_ sql: String, _ arguments: [SQLValue]) throws -> CheckInScan? {
                    var found: CheckInScan?
                    try db.query(sql, arguments) { r in found = DoorSchema.scan(show: scan.showID, (0..<7).map { r.text(Int32($0)) }) }
                    return found
                }
                if let earlier = try one(DoorSchema.findNonce, [.text(scan.showID), .text(scan.nonce)]) { return .recorded(earlier, replay: true) }
                var changed = false
                switch scan.direction {
                case .in:
                    try db.query(
                        DoorSchema.enter,
                        [
                            .text(scan.showID), .text(scan.ticketID), .integer(Int64(scan.seat)), .text(scan.nonce), .text(scan.gate),
                            .text(scan.operatorName), .integer(scan.at),
                        ]
                    ) { _ in changed = true }
                    if !changed, let earlier = try one(DoorSchema.presence, [.text(scan.showID), .text(scan.ticketID)]) {
                        return earlier.nonce == scan.nonce ? .recorded(earlier, replay: true) : .alreadyIn(earlier)
                    }
                case .out:
                    try db.query(
                        DoorSchema.leave,
                        [.text(scan.nonce), .text(scan.gate), .text(scan.operatorName), .integer(scan.at), .text(scan.showID), .text(scan.ticketID)]
                    ) { _ in changed = true }
                    if !changed { return .notInside(try one(DoorSchema.presence, [.text(scan.showID), .text(scan.ticketID)])) }
                }
                try db.run(
                    DoorSchema.record,
                    [
                        .text(scan.showID), .text(scan.nonce), .text(scan.ticketID), .integer(Int64(scan.seat)), .text(scan.direction.rawValue),
                        .text(scan.gate), .text(scan.operatorName), .integer(scan.at), .text(scan.showID),
                    ])
                // A ticket let in is a webhook event, written with the scan (checkin.accepted).
                if scan.direction == .in { try record([OutboxEvent.checkIn(scan, at: OutboxEvent.now())], db) }
                return .recorded(scan, replay: false)
            }
        }
        if case .recorded(_, false) = outcome { try syncer?.waitUntilDurable() }
        return outcome
    }

    public func recentScans(show: String, limit: Int) throws -> [CheckInScan] {
        try locked { db in
            var out: [CheckInScan] = []
            try db.query(DoorSchema.recentScans, [.text(show), .integer(Int64(limit))]) { r in
                out.append(DoorSchema.scan(show: show, (0..<7).map { r.text(Int32($0)) }))
            }
            return out
        }
    }

    public func seatSales(show: String, seat: Int) throws -> SeatSales {
        try locked { db in
            var sales = SeatSales(current: nil, refunded: [])
            try db.query(DoorSchema.currentSale, [.text(show), .integer(Int64(seat))]) { r in
                sales.current = r.isNull(0) ? nil : r.text(0)
                sales.identity = r.isNull(1) ? nil : r.text(1)
                sales.attendee = r.isNull(2) ? nil : r.text(2)
            }
            try db.query(DoorSchema.refundedSales, [.text(show), .integer(Int64(seat))]) { sales.refunded.append($0.text(0)) }
            if sales.identity != nil, let sale = sales.current {
                try db.query(DoorSchema.generation, [.text(show), .integer(Int64(seat)), .text(sale)]) { sales.generation = Int($0.int(0)) }
            }
            return sales
        }
    }

    public func checkInCounts(show: String) throws -> CheckInCounts {
        try locked { db in
            var rows: [(gate: String, direction: String, n: Int)] = [], inside = 0, came = 0
            try db.query(DoorSchema.countsByGate, [.text(show)]) { rows.append(($0.text(0), $0.text(1), Int($0.int(2)))) }
            try db.query(DoorSchema.insideCount, [.text(show)]) {
                inside = Int($0.int(0)); came = Int($0.int(1))
            }
            return DoorSchema.counts(rows, inside: inside, came: came)
        }
    }
}
