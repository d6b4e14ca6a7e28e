extension ResellerFormat {
    /// Makes couples of one row's seats (in floor order): two neighbours sharing a piece number when
    /// pieces are groups, else an `L` followed by its `R`. What cannot be a couple is imported as single
    /// seats with a note: a triple (SeatKit sells seats alone or in pairs), a half without its partner,
    /// a group whose seats are not side by side. Statuses go to `statuses`; a couple whose halves
    /// disagree takes the less available one (a seat cannot be sold without its other half).
    static func pair(_ specs: inout [SeatSpec], _ seats: [Parsed], grouped: Bool, notes: inout [String], statuses: inout [String: SeatStatus]) {
        for (spec, seat) in zip(specs, seats) { statuses[spec.id] = seat.status }
        func beside(_ a: Int, _ b: Int) -> Bool { b < specs.count && specs[b].x - specs[a].x <= aisleGapThreshold }
        var i = 0
        while i < specs.count {
            // The run of seats that belong together starting at i.
            var end = i + 1
            if grouped, let piece = seats[i].piece {
                while end < specs.count && seats[end].piece == piece && beside(end - 1, end) { end += 1 }
            } else if seats[i].kind == .left {
                while end < specs.count && seats[end].kind == .middle && beside(end - 1, end) { end += 1 }
                if end < specs.count && seats[end].kind == .right && beside(end - 1, end) { end += 1 }
            }
            let run = Array(i..<end)
            let names = run.map { seats[$0].id }.joined(separator: ", ")
            if run.count == 2 {
                couple(&specs, run[0], run[1], seats, notes: &notes, statuses: &statuses)
                if seats[run[0]].kind != .left || seats[run[1]].kind != .right {
                    notes.append("\(seats[run[0]].path): seats \(names) share piece number \(seats[i].piece ?? ""): imported as a couple")
                }
            } else if run.count > 2 {
                notes.append(
                    "\(seats[i].path): seats \(names) are sold together as \(run.count); imported as single seats (SeatKit sells couples, not larger groups)")
            } else if seats[i].kind != .single {
                notes.append("\(seats[i].path): seat \(seats[i].id) is part of a couple or triple without its other seats beside it; imported as a single seat")
            }
            i = end
        }
    }

    static func couple(_ specs: inout [SeatSpec], _ l: Int, _ r: Int, _ seats: [Parsed], notes: inout [String], statuses: inout [String: SeatStatus]) {
        specs[l].type = .coupleLeft; specs[r].type = .coupleRight
        specs[l].partner = specs[r].id; specs[r].partner = specs[l].id
        let a = seats[l].status, b = seats[r].status
        guard a != b else { return }
        let order: [SeatStatus] = [.sold, .blocked, .held, .available]
        let kept = order.first { $0 == a || $0 == b }!
        statuses[specs[l].id] = kept; statuses[specs[r].id] = kept
        notes.append("\(seats[l].path): couple \(seats[l].id), \(seats[r].id) has halves \(a.name) and \(b.name); both kept \(kept.name)")
    }
}
