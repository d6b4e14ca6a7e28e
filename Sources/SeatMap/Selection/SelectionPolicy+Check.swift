extension SelectionPolicy {
    /// Every rule `selection` breaks, in rule order; empty when the selection may be held.
    /// - Complexity: O(k + seats in the touched blocks) for k selected seats.
    public func violations(
        for selection: [SeatIndex], in layout: VenueLayout, availability: SeatAvailability,
        context: SelectionContext = SelectionContext()
    ) -> [SelectionViolation] {
        var seen = Set<SeatIndex>()
        let seats = selection.filter { seen.insert($0).inserted }
        var out: [SelectionViolation] = []
        func name(_ i: SeatIndex, _ l: Language) -> String { layout.printedName(i, language: l) }
        func names(_ list: [SeatIndex], _ l: Language) -> String {
            list.map { name($0, l) }.joined(separator: l == .chinese ? "、" : "; ")
        }
        func isFree(_ i: SeatIndex) -> Bool { availability[i] == .available || context.ownHeld.contains(i) }
        /// A rule broken by `list` (none: not broken), its message the seats' names after `chinese` and
        /// `english`.
        func broken(_ rule: SelectionRule, _ list: [SeatIndex], chinese: String, english: String) {
            guard !list.isEmpty else { return }
            out.append(SelectionViolation(rule: rule, seats: list, chinese: chinese + names(list, .chinese), english: english + names(list, .english) + "."))
        }

        let taken = seats.filter { !isFree($0) }
        if !taken.isEmpty {
            out.append(
                SelectionViolation(
                    rule: .notAvailable, seats: taken,
                    chinese: taken.map { "\(name($0, .chinese))\(availability[$0].localizedName(.chinese))" }.joined(separator: "，") + "，请选择其他座位",
                    english: taken.map { "\(name($0, .english)) is \(availability[$0].localizedName(.english))" }.joined(separator: "; ")
                        + ". Please choose other seats."))
        }
        // A box sold whole, a party's room or a table sold whole is one choice, however many it seats; a
        // standing place is a ticket.
        var units = Set<Int>(), counted = 0
        var atTables: [Int: [SeatIndex]] = [:]
        for i in seats {
            if layout.isPlace(i), let placed = layout.area(of: i), placed.area.mode != .places {
                units.insert(placed.row)
            } else if let placed = layout.table(of: i) {
                atTables[placed.row, default: []].append(i)
                if mode(of: placed) == .byTable { units.insert(placed.row) } else { counted += 1 }
            } else {
                counted += 1
            }
        }
        if counted + units.count > maxSeats {
            out.append(
                SelectionViolation(
                    rule: .seatLimit, seats: seats,
                    chinese: "每单最多可选\(maxSeats)个座位",
                    english: "You can choose at most \(maxSeats) seats per order."))
        }
        for row in atTables.keys.sorted() {
            let chosen = atTables[row]!, placed = layout.table(of: chosen[0])!
            let name = { (l: Language) in localizedName(placed.table.name, l) }
            switch mode(of: placed) {
            case .bySeat: break
            case .byTable:
                let missing = placed.seats.filter { !seen.contains($0) }
                guard !missing.isEmpty else { break }
                out.append(
                    SelectionViolation(
                        rule: .wholeTable, seats: missing,
                        chinese: "\(name(.chinese))整桌出售，请选择全部\(placed.seats.count)个座位",
                        english: "\(name(.english)) is sold as a whole table: choose all \(placed.seats.count) of its seats."))
            case .minimum(let n):
                // Fewer free than the minimum: whoever takes the table's last seats takes them all.
                let needed = min(n, placed.seats.filter(isFree).count)
                guard chosen.count < needed else { break }
                out.append(
                    SelectionViolation(
                        rule: .tableMinimum, seats: chosen,
                        chinese: "\(name(.chinese))至少需选\(needed)个座位",
                        english: "At \(name(.english)), choose at least \(needed) seats together."))
            }
        }
        if couplesTogether {
            var lonely: [SeatIndex] = []
            for i in seats where layout.type(of: i).isCouple {
                if let p = layout.partner(of: i), !seen.contains(p) { lonely.append(contentsOf: [i, p]) }
            }
            broken(.couplePair, lonely, chinese: "情侣座需成对选择：", english: "Couple seats are sold as a pair: ")
        }
        if wheelchairOnRequest && !context.wheelchairRequested {
            let wheel = seats.filter { layout.type(of: $0) == .wheelchair }
            broken(.wheelchairOnRequest, wheel, chinese: "轮椅位仅在需要时可选：", english: "Wheelchair spaces can only be chosen when you ask for one: ")
        }
        if companionWithWheelchair {
            let alone = seats.filter { i in
                layout.type(of: i) == .companion && !(layout.partner(of: i).map { seen.contains($0) } ?? false)
            }
            broken(.companionWithWheelchair, alone, chinese: "陪同座须与其轮椅位一起选择：", english: "A companion seat goes with its wheelchair space: ")
        }
        if noLoneSeat {
            // Judged on the seats the buyer could have: a sold seat in the selection is not theirs, and
            // counting it as chosen named a free seat beside it "lone" that their choice did not leave.
            let lone = loneSeats(selected: taken.isEmpty ? seen : seen.filter(isFree), in: layout, isFree: isFree)
            broken(.loneSeat, lone, chinese: "请不要留下单个空座：", english: "Please don't leave a single empty seat: ")
        }
        return out
    }

    /// Seats the selection would leave as the only free seat between taken seats, row ends or aisles,
    /// where another placement of as many seats in the same free run would not. Only seats someone
    /// could still buy count: a companion seat whose wheelchair space is gone, or a couple half whose
    /// other half is, is neither protected nor part of a run (nobody can buy it, so leaving it is no loss).
    func loneSeats(selected: Set<SeatIndex>, in layout: VenueLayout, isFree: (SeatIndex) -> Bool) -> [SeatIndex] {
        var blocks = Set<Int>()
        for i in selected { blocks.insert(layout.blockIndex(of: i)) }
        func inRun(_ i: SeatIndex) -> Bool {
            if selected.contains(i) { return true }
            return isFree(i) && stillSellable(i, in: layout) { p in isFree(p) && !selected.contains(p) }
        }
        var lone: [SeatIndex] = []
        for b in blocks.sorted() {
            let block = layout.blocks[b]
            // An area's places are counted, not placed: no place is "lone"; a table's seats go round it
            // and its mode says how it is shared.
            if layout.isPlace(block.lowerBound) || layout.table(of: block.lowerBound) != nil { continue }
            var i = block.lowerBound
            while i < block.upperBound {
                guard inRun(i) else { i += 1; continue }
                var end = i
                var picked = 0
                while end < block.upperBound && inRun(end) { if selected.contains(end) { picked += 1 }; end += 1 }
                // A run of L free seats with m picked: a lone seat is unavoidable exactly when L - m == 1.
                if picked > 0 && (end - i) - picked != 1 {
                    var k = i
                    while k < end {
                        if selected.contains(k) { k += 1; continue }
                        var gapEnd = k
                        while gapEnd < end && !selected.contains(gapEnd) { gapEnd += 1 }
                        if gapEnd - k == 1 { lone.append(k) }
                        k = gapEnd
                    }
                }
                i = end
            }
        }
        return lone
    }

    /// Whether a free seat could still be bought under this policy: a companion seat needs its wheelchair
    /// space free, a couple half its other half (`partnerFree`).
    /// - Complexity: O(1).
    @inline(__always)
    func stillSellable(_ i: SeatIndex, in layout: VenueLayout, partnerFree: (SeatIndex) -> Bool) -> Bool {
        let t = layout.type(of: i)
        guard (t == .companion && companionWithWheelchair) || (t.isCouple && couplesTogether) else { return true }
        return layout.partner(of: i).map(partnerFree) ?? true
    }
}
