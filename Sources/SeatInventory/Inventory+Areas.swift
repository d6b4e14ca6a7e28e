import SeatMap

/// General-admission areas (#53): a hold asks for places by count and the inventory picks which. A
/// place is a seat of the layout (`Area`), so from here on a place is held, sold, refunded and logged
/// as a seat is, and the store's one claim a seat keeps an area from selling past its capacity on every
/// instance.
extension Inventory {
    /// What each area of a show has: capacity, free, held, sold, and places not for sale.
    public struct AreaCounts: Sendable, Hashable {
        public var area: Area
        public var free = 0, held = 0, sold = 0, blocked = 0
        /// Whether a request may still take some: a whole area or a party's only when all of it is free.
        public var open: Bool {
            switch area.mode {
            case .places: free > 0
            case .whole, .party: free == area.capacity
            }
        }
    }

    /// The places `asked` of each area, chosen among its free ones, or why not: an unknown area or a
    /// count its mode does not take (422), too few free (409). Under the lock.
    /// - Complexity: O(places of the areas asked for).
    func choosePlaces(_ asked: [(area: String, count: Int)], in state: ShowState, besides named: [SeatIndex] = []) throws(Refusal) -> [SeatIndex] {
        // A place the request also names by id is not chosen again.
        let excluded = Set(named)
        var chosen: [SeatIndex] = []
        for (id, count) in asked {
            guard let placed = state.layout.area(id: id) else {
                let known = state.layout.areas.map(\.area.id)
                throw Refusal.invalid(
                    path: "areas.\(id)",
                    known.isEmpty
                        ? "venue \(state.layout.id) has no general-admission area" : "no area \"\(id)\" (this venue has \(known.joined(separator: ", ")))")
            }
            let area = placed.area
            switch area.mode {
            case .places:
                // Any free places, drawn at random: two instances choosing at once rarely pick the same
                // one (the store refuses the second of a pair), where the lowest first always would.
                // Probed first (a few draws while the area has room: a hold on a 10,000-place area
                // read every place's status before, ~40 µs under the lock); counted when it is nearly full.
                if let probed = Self.probe(placed.places, count: count, taken: excluded.union(chosen), state.availability) {
                    chosen += probed
                    continue
                }
                let free = placed.places.filter { state.availability[$0] == .available && !excluded.contains($0) }
                guard free.count >= count else { throw Self.areaFull(area, free: free.count, asked: count, in: state) }
                var pool = free
                var g = SystemRandomNumberGenerator()
                for k in 0..<count {
                    let j = Int.random(in: k..<pool.count, using: &g)
                    pool.swapAt(k, j)
                }
                chosen += pool[0..<count]
            case .whole:
                let free = placed.places.filter { state.availability[$0] == .available }
                guard count == 1 else {
                    throw Refusal.invalid(path: "areas.\(id)", "\(area.name) is sold whole: ask for 1 (its \(area.capacity) places together)")
                }
                guard free.count == area.capacity else { throw Self.areaFull(area, free: 0, asked: 1, in: state) }
                chosen += placed.places
            case .party(let low, let high):
                let free = placed.places.filter { state.availability[$0] == .available }
                guard count >= low && count <= high else {
                    throw Refusal.invalid(path: "areas.\(id)", "\(area.name) takes one party of \(low) to \(high) people, not \(count)")
                }
                guard free.count == area.capacity else { throw Self.areaFull(area, free: 0, asked: count, in: state) }
                // Always its first places: two parties racing on two instances claim the same first place,
                // and the store takes one of them.
                chosen += placed.places.prefix(count)
            }
        }
        return chosen
    }

    /// The places to add and to let go of so that a hold with `own` has `targets` of each area: more
    /// chosen as a new hold's are (`choosePlaces`), fewer by letting go of the last ones it has. A whole
    /// area goes to 1 or 0; a party's to 0 or a size its area takes, always its first places.
    func placeChanges(_ targets: [(area: String, count: Int)], own: Set<SeatIndex>, in state: ShowState) throws(Refusal) -> (
        add: [SeatIndex], remove: [SeatIndex]
    ) {
        var add: [SeatIndex] = [], remove: [SeatIndex] = []
        for (id, target) in targets {
            guard let placed = state.layout.area(id: id) else { _ = try choosePlaces([(id, 1)], in: state); continue }
            let mine = placed.places.filter { own.contains($0) }
            switch placed.area.mode {
            case .places:
                if target > mine.count {
                    add += try choosePlaces([(id, target - mine.count)], in: state, besides: add)
                } else {
                    remove += mine.suffix(mine.count - target)
                }
            case .whole:
                if target == 0 {
                    remove += mine
                } else if mine.isEmpty {
                    add += try choosePlaces([(id, target)], in: state)
                } else if target != 1 {
                    throw Refusal.invalid(path: "areas.\(id)", "\(placed.area.name) is sold whole: have 1 or 0")
                }
            case .party(let low, let high):
                if target == 0 {
                    remove += mine
                } else if mine.isEmpty {
                    add += try choosePlaces([(id, target)], in: state)
                } else {
                    guard target >= low && target <= high else {
                        throw Refusal.invalid(path: "areas.\(id)", "\(placed.area.name) takes one party of \(low) to \(high) people, not \(target)")
                    }
                    // The party's own first places, grown or shrunk from the end.
                    let wanted = Array(placed.places.prefix(target))
                    let more = wanted.filter { !own.contains($0) }
                    if more.contains(where: { state.availability[$0] != .available }) {
                        throw Self.areaFull(placed.area, free: 0, asked: target, in: state)
                    }
                    add += more
                    remove += mine.filter { !wanted.contains($0) }
                }
            }
        }
        return (add, remove)
    }

    /// `count` distinct free places of `places` found by at most 4 draws a place; nil when the draws
    /// did not find enough (the area is nearly full: the caller counts instead).
    static func probe(_ places: Range<SeatIndex>, count: Int, taken: Set<SeatIndex>, _ availability: SeatAvailability) -> [SeatIndex]? {
        var found: [SeatIndex] = [], seen = taken
        var g = SystemRandomNumberGenerator()
        for _ in 0..<(4 * count) {
            let i = Int.random(in: places, using: &g)
            if availability[i] == .available, seen.insert(i).inserted {
                found.append(i)
                if found.count == count { return found }
            }
        }
        return nil
    }

    static func areaFull(_ area: Area, free: Int, asked: Int, in state: ShowState) -> Refusal {
        let detail =
            switch area.mode {
            case .places: "\(area.id): \(free) of \(area.capacity) places free, \(asked) asked"
            case .whole: "\(area.id): \(area.name) is taken"
            case .party: "\(area.id): \(area.name) is taken by another party"
            }
        return Refusal(.areaFull, detail: detail, details: [.errors([("areas." + area.id, "\(free) free")])])
    }

    /// Each area's counts at the show's current version.
    /// - Complexity: O(places).
    public func areaCounts(show id: String) throws(Refusal) -> (version: UInt64, areas: [AreaCounts]) {
        try locked { (m: Memory) throws(Refusal) in
            let state = try state(forShow: id, in: m)
            let counts = state.layout.areas.map { placed in
                var c = AreaCounts(area: placed.area)
                for i in placed.places {
                    switch state.availability[i] {
                    case .available: c.free += 1
                    case .held: c.held += 1
                    case .sold: c.sold += 1
                    default: c.blocked += 1
                    }
                }
                return c
            }
            return (state.availability.version, counts)
        }
    }
}
