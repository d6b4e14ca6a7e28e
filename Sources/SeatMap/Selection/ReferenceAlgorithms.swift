/// Slow, obviously correct versions of the fast algorithms: the oracles the tests compare against and
/// the baselines the benchmarks measure against. Not for production paths.
public enum ReferenceAlgorithms {
    /// Best available by trying every window of every row, allocating each window and re-deriving
    /// aisles and free runs from scratch: O(seats × count) with an allocation per window.
    public static func bestAvailableTryingEveryWindow(
        _ request: BestAvailableRequest, layout: VenueLayout,
        availability: SeatAvailability,
        policy: SelectionPolicy = .standard
    ) -> [SeatIndex]? {
        let n = request.count
        guard n > 0, n <= policy.maxSeats else { return nil }
        let fp = request.focalPoint ?? layout.defaultFocalPoint
        let focal = (Int64((fp.x * 64).rounded()), Int64((fp.y * 64).rounded()))
        func adjacent(_ a: SeatIndex, _ b: SeatIndex) -> Bool {
            let p = layout.position(a), q = layout.position(b)
            let dx = Double(Float(q.x)) - Double(Float(p.x)), dy = Double(Float(q.y)) - Double(Float(p.y))
            return dx * dx + dy * dy <= aisleGapThreshold * aisleGapThreshold
        }
        func free(_ i: SeatIndex) -> Bool { availability[i] == .available }
        var best: (Double, [SeatIndex])? = nil
        for row in layout.rows {
            for start in row.seats {
                let window = Array(start..<min(start + n, row.seats.upperBound))
                guard window.count == n else { break }
                guard zip(window, window.dropFirst()).allSatisfy({ adjacent($0, $1) }) else { continue }
                guard window.allSatisfy(free) else { continue }
                let zonesOK = window.allSatisfy { i in
                    let z = layout.zone(of: i)
                    return (request.zone == nil || request.zone == z.id) && (request.category == nil || request.category == z.category)
                }
                guard zonesOK else { continue }
                let types = window.map { layout.type(of: $0) }
                if !request.wheelchair && policy.wheelchairOnRequest && types.contains(.wheelchair) { continue }
                if !request.wheelchair && types.contains(.companion) { continue }
                if request.wheelchair && !types.contains(.wheelchair) { continue }
                if policy.couplesTogether
                    && window.contains(where: { i in
                        layout.type(of: i).isCouple && !window.contains(layout.partner(of: i)!)
                    })
                {
                    continue
                }
                if window.contains(where: { layout.type(of: $0) == .companion && !window.contains(layout.partner(of: $0)!) }) { continue }
                var left = 0, k = start - 1
                while k >= row.seats.lowerBound && adjacent(k, k + 1) && free(k) { left += 1; k -= 1 }
                var right = 0
                k = start + n
                while k < row.seats.upperBound && adjacent(k - 1, k) && free(k) { right += 1; k += 1 }
                let lone = left == 1 || right == 1
                if lone && policy.noLoneSeat && left + right != 1 { continue }
                var sx: Int64 = 0, sy: Int64 = 0
                for i in window { let q = layout.quantised(i); sx += q.0; sy += q.1 }
                let score = VenueLayout.windowScore(sumX: sx, sumY: sy, count: n, focal: focal, leavesLoneSeat: lone)
                if best == nil || score < best!.0 { best = (score, window) }
            }
        }
        return best?.1
    }
}
