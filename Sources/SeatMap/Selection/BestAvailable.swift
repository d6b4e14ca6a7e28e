/// What a "best N seats" request asks for.
public struct BestAvailableRequest: Sendable, Hashable {
    public var count: Int
    /// Only seats of this zone id.
    public var zone: String?
    /// Only seats whose zone sells in this price category.
    public var category: String?
    /// Include a wheelchair space (and allow companion seats next to it).
    public var wheelchair: Bool
    /// Where the best seat is; default `VenueLayout.defaultFocalPoint`.
    public var focalPoint: FloorPoint?

    public init(
        count: Int, zone: String? = nil, category: String? = nil, wheelchair: Bool = false,
        focalPoint: FloorPoint? = nil
    ) {
        self.count = count; self.zone = zone; self.category = category
        self.wheelchair = wheelchair; self.focalPoint = focalPoint
    }
}

extension VenueLayout {
    /// The centre of the seating across, two thirds of the way from its front row to its back row (the
    /// front is the side nearer the stage; with no stage, the lowest y). Measured across the seats, not
    /// from the screen: a layout gives the screen's place only sometimes (and pretix plans a stage box of
    /// any size), and the seats' extent keeps the point inside the hall in every format.
    public var defaultFocalPoint: FloorPoint {
        let b = bounds
        let cx = (b.minX + b.maxX) / 2
        guard let stage else { return FloorPoint(x: cx, y: b.minY + b.height * 2 / 3) }
        // The far end of the seating from the stage, whichever side the stage is on.
        let far = abs(b.maxY - stage.center.y) >= abs(b.minY - stage.center.y) ? b.maxY : b.minY
        let near = far == b.maxY ? b.minY : b.maxY
        return FloorPoint(x: cx, y: near + (far - near) * 2 / 3)
    }

    /// Seat positions quantised to 1/1000 unit so window sums are exact and every implementation ranks
    /// windows identically. A decimal quantum: positions come from decimal files, so windows equally near
    /// in the file's own numbers (seats 0.3 apart, a focal point at 0.45) tie exactly and the lowest index
    /// wins, as documented; with 1/64 (0.3 → 19/64, 0.6 → 38/64) such a tie went to the later window.
    /// Within ±10^6 units a window's sums stay below 2^53, their squares within the 128 bits used.
    static let quantum: Double = 1000

    @inline(__always) func quantised(_ i: SeatIndex) -> (Int64, Int64) {
        (Int64((Double(storage.x[i]) * Self.quantum).rounded()), Int64((Double(storage.y[i]) * Self.quantum).rounded()))
    }

    /// Where a window ranks: every window that leaves no lone seat before every window that leaves an
    /// (unavoidable) one, then by the squared distance of its centroid from the focal point, exact (the
    /// quantised sums are integers, squared to 128 bits). Ties keep the window found first, the lowest
    /// seat index. (A penalty of 1e30 added to the distance in a `Double` once made every penalised
    /// window tie, so a nearly sold-out show got its front-left window, not its best one.)
    struct WindowRank: Comparable {
        var leavesLoneSeat: Bool
        var distanceHigh: UInt64
        var distanceLow: UInt64

        /// The rank of a window of `count` seats whose quantised positions sum to (`sumX`, `sumY`).
        init(sumX: Int64, sumY: Int64, count: Int, focal: (Int64, Int64), leavesLoneSeat: Bool) {
            let dx = (sumX - Int64(count) * focal.0).magnitude, dy = (sumY - Int64(count) * focal.1).magnitude
            let x = dx.multipliedFullWidth(by: dx), y = dy.multipliedFullWidth(by: dy)
            let (low, carry) = x.low.addingReportingOverflow(y.low)
            self.leavesLoneSeat = leavesLoneSeat
            distanceHigh = x.high + y.high + (carry ? 1 : 0)
            distanceLow = low
        }

        static func < (a: WindowRank, b: WindowRank) -> Bool {
            if a.leavesLoneSeat != b.leavesLoneSeat { return !a.leavesLoneSeat }
            return (a.distanceHigh, a.distanceLow) < (b.distanceHigh, b.distanceLow)
        }
    }

    /// The best `request.count` free seats side by side in one row, never across an aisle, obeying
    /// `policy`, nearest the focal point; `nil` when no such block exists.
    /// Deterministic: ties go to the lowest seat index.
    /// - Complexity: O(seats), no allocation per seat.
    public func bestAvailable(
        _ request: BestAvailableRequest, availability: SeatAvailability,
        policy: SelectionPolicy = .standard
    ) -> [SeatIndex]? {
        let n = request.count
        guard n > 0, n <= policy.maxSeats, availability.seatCount == seatCount else { return nil }
        let fp = request.focalPoint ?? defaultFocalPoint
        // A focal point far outside the hall ranks as one at the hall's edge of the coordinate range would.
        let clamp = { (v: Double) in v.isFinite ? min(max(v, -VenueLayout.coordinateLimit * 4), VenueLayout.coordinateLimit * 4) : 0 }
        let focal = (Int64((clamp(fp.x) * Self.quantum).rounded()), Int64((clamp(fp.y) * Self.quantum).rounded()))
        let eligibleZones = zones.map { z in
            (request.zone == nil || request.zone == z.id) && (request.category == nil || request.category == z.category)
        }
        let hasTables = !storage.tables.isEmpty
        func eligible(_ i: SeatIndex) -> Bool {
            guard eligibleZones[Int(storage.zoneOf[i])] else { return false }
            let t = storage.typeOf[i]
            if t == SeatType.place.rawValue { return false }  // areas are asked for by count, not ranked
            if hasTables && table(of: i) != nil { return false }  // tables are chosen on the map, as tables
            if !request.wheelchair && policy.wheelchairOnRequest && t == SeatType.wheelchair.rawValue { return false }
            if !request.wheelchair && t == SeatType.companion.rawValue { return false }
            return true
        }
        var best: (rank: WindowRank, start: Int)? = nil
        var status = availability.reader()
        // Runs are of seats someone could still buy (`SelectionPolicy.stillSellable`): a companion seat
        // whose wheelchair space is gone, or a couple half without its other half, ends a run. Indexed by
        // raw type, one array read a seat and no closure over the reader: a nested function capturing it
        // made every status read an exclusivity check (best available on 100k seats went 1.4 → 6.4 ms).
        let pairTypes: [Bool] = (0..<256).map { t in
            (t == Int(SeatType.companion.rawValue) && policy.companionWithWheelchair)
                || ((t == Int(SeatType.coupleLeft.rawValue) || t == Int(SeatType.coupleRight.rawValue)) && policy.couplesTogether)
        }
        let typeOf = storage.typeOf
        for block in blocks {
            var a = block.lowerBound
            while a < block.upperBound {
                guard status(a) == .available, !pairTypes[Int(typeOf[a])] || partnerFree(a, &status) else { a += 1; continue }
                var b = a
                while b < block.upperBound && status(b) == .available && (!pairTypes[Int(typeOf[b])] || partnerFree(b, &status)) { b += 1 }
                let runLength = b - a
                if runLength >= n {
                    var ineligible = 0, wheelchairs = 0
                    var sumX: Int64 = 0, sumY: Int64 = 0
                    for i in a..<(a + n) {
                        if !eligible(i) { ineligible += 1 }
                        if storage.typeOf[i] == SeatType.wheelchair.rawValue { wheelchairs += 1 }
                        let q = quantised(i); sumX += q.0; sumY += q.1
                    }
                    var s = a
                    while true {
                        let last = s + n - 1
                        if ineligible == 0 && (!request.wheelchair || wheelchairs > 0)
                            && windowKeepsPairs(s, last, policy: policy, wheelchair: request.wheelchair)
                        {
                            let lone = (s - a == 1) || (b - 1 - last == 1)
                            if !(lone && policy.noLoneSeat && runLength - n != 1) {
                                let rank = WindowRank(sumX: sumX, sumY: sumY, count: n, focal: focal, leavesLoneSeat: lone)
                                if best == nil || rank < best!.rank { best = (rank, s) }
                            }
                        }
                        guard last + 1 < b else { break }
                        // Slide by one: drop seat s, take seat last + 1.
                        if !eligible(s) { ineligible -= 1 }
                        if !eligible(last + 1) { ineligible += 1 }
                        if storage.typeOf[s] == SeatType.wheelchair.rawValue { wheelchairs -= 1 }
                        if storage.typeOf[last + 1] == SeatType.wheelchair.rawValue { wheelchairs += 1 }
                        let out = quantised(s), inn = quantised(last + 1)
                        sumX += inn.0 - out.0; sumY += inn.1 - out.1
                        s += 1
                    }
                }
                a = b
            }
        }
        guard let best else { return nil }
        return Array(best.start..<(best.start + n))
    }

    /// Whether seat `i`'s partner is available (true when it has none).
    @inline(__always)
    func partnerFree(_ i: SeatIndex, _ status: inout StatusReader) -> Bool {
        guard let p = storage.partner[Int32(i)] else { return true }
        return status(Int(p)) == .available
    }

    /// A window must not cut a couple pair, and a companion seat needs its wheelchair space inside it.
    @inline(__always)
    func windowKeepsPairs(_ first: SeatIndex, _ last: SeatIndex, policy: SelectionPolicy, wheelchair: Bool) -> Bool {
        if policy.couplesTogether {
            if storage.typeOf[first] == SeatType.coupleRight.rawValue { return false }
            if storage.typeOf[last] == SeatType.coupleLeft.rawValue { return false }
        }
        if wheelchair {
            // Only wheelchair requests admit companions; windows are short, so check them directly.
            for i in first...last where storage.typeOf[i] == SeatType.companion.rawValue {
                let p = Int(storage.partner[Int32(i)] ?? -1)
                if p < first || p > last { return false }
            }
        }
        return true
    }
}
