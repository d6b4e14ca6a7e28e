/// Slow, obviously correct versions of the fast algorithms: the oracles the tests compare against and
/// the baselines the benchmarks measure against. Not for production paths.
package enum ReferenceAlgorithms {
    /// A window best available may pick, and how far from the documented order's best it is: whether it
    /// leaves a lone seat, and the distance of its centroid from the focal point.
    package struct BestAvailableCandidate: Sendable, Equatable {
        package var seats: [SeatIndex]
        package var leavesLoneSeat: Bool
        package var distance: Double
    }

    /// Every window best available may pick, found by trying every window of every row, allocating each
    /// and re-deriving aisles and free runs from scratch, and ranked on its own: the centroid from the
    /// seats' positions in `Double`, its Euclidean distance from the focal point (none of the engine's
    /// quantising or scoring), windows leaving a lone seat after the others.
    /// - Complexity: O(seats × count), an allocation per window.
    package static func bestAvailableCandidates(
        _ request: BestAvailableRequest, layout: VenueLayout,
        availability: SeatAvailability,
        policy: SelectionPolicy = .standard
    ) -> [BestAvailableCandidate] {
        let n = request.count
        guard n > 0, n <= policy.maxSeats else { return [] }
        let fp = request.focalPoint ?? layout.defaultFocalPoint
        func adjacent(_ a: SeatIndex, _ b: SeatIndex) -> Bool {
            let p = layout.position(a), q = layout.position(b)
            let dx = Double(Float(q.x)) - Double(Float(p.x)), dy = Double(Float(q.y)) - Double(Float(p.y))
            return dx * dx + dy * dy <= aisleGapThreshold * aisleGapThreshold
        }
        // Free and still sellable: a companion seat needs its wheelchair space free, a couple half its
        // other half (when the policy sells them only together).
        func free(_ i: SeatIndex) -> Bool {
            guard availability[i] == .available else { return false }
            let t = layout.type(of: i)
            let paired = (t == .companion && policy.companionWithWheelchair) || (t.isCouple && policy.couplesTogether)
            return !paired || layout.partner(of: i).map { availability[$0] == .available } ?? true
        }
        var candidates: [BestAvailableCandidate] = []
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
                var cx = 0.0, cy = 0.0
                for i in window { let p = layout.position(i); cx += Double(p.x); cy += Double(p.y) }
                cx /= Double(n); cy /= Double(n)
                let distance = ((cx - fp.x) * (cx - fp.x) + (cy - fp.y) * (cy - fp.y)).squareRoot()
                candidates.append(BestAvailableCandidate(seats: window, leavesLoneSeat: lone, distance: distance))
            }
        }
        return candidates
    }

    /// The documented order's best of `bestAvailableCandidates`: no lone seat left before one, then the
    /// nearest; distances within a millionth of a seat width tie, and ties go to the lowest seat index.
    package static func bestAvailableTryingEveryWindow(
        _ request: BestAvailableRequest, layout: VenueLayout,
        availability: SeatAvailability,
        policy: SelectionPolicy = .standard
    ) -> [SeatIndex]? {
        var best: BestAvailableCandidate?
        for c in bestAvailableCandidates(request, layout: layout, availability: availability, policy: policy) {
            guard let b = best else { best = c; continue }
            if c.leavesLoneSeat != b.leavesLoneSeat {
                if !c.leavesLoneSeat { best = c }
            } else if c.distance < b.distance - 1e-6 || (abs(c.distance - b.distance) <= 1e-6 && c.seats[0] < b.seats[0]) {
                best = c
            }
        }
        return best?.seats
    }
}
