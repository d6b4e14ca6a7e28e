import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

/// Partners' allocations (#53): a channel is a reservation of the box office's (its seats `blocked` to
/// everyone else, its end the `releaseAt` of the expiry pass, moved seat by seat as a reservation is)
/// whose token is given to the manager as the channel's key instead of thrown away. A partner holds with
/// the key: the seats' claims move from the channel to the partner's hold in one commit (the store's
/// one claim a seat still says no to anything else), and when that hold ends unsold they move back, or
/// go to the public sale when the channel has ended meanwhile. A channel's id is `c_…`; a partner's
/// hold's is `p_…@…`, the channel's after the `@`, so every instance, and every restart, knows whose
/// channel a hold drew from without another column.
extension Inventory {
    public struct NewChannel: Sendable {
        public var name: String
        public var seatIDs: [String]
        public var places: [(area: String, count: Int)]
        /// Unix milliseconds: what is unsold returns to the public sale then (nil: kept until released).
        public var releaseAt: Int64?
        /// The channel's own price a category (a partner's net rate); the show's for the others.
        public var prices: [String: Decimal]
        public init(
            name: String, seatIDs: [String], places: [(area: String, count: Int)] = [], releaseAt: Int64? = nil, prices: [String: Decimal] = [:]
        ) {
            self.name = name; self.seatIDs = seatIDs; self.places = places; self.releaseAt = releaseAt; self.prices = prices
        }
    }

    /// A channel as its manager sees it: what it still has, and what its partner holds and sold.
    public struct ChannelView: Sendable {
        public var id: String
        public var showID: String
        public var name: String
        /// Its seats and places not yet held or sold by its partner.
        public var seatIDs: [String]
        /// Seats and places its partner holds now.
        public var held: Int
        public var releaseAt: Int64?
        public var operatorName: String
        public var createdAt: Int64
        /// Its own price a category.
        public var prices: [String: Money] = [:]
    }

    /// A channel's own prices, kept in its record's `prices` as `c:CATEGORY=AMOUNT` pairs (a reader of
    /// hold prices skips pairs that are not a seat's).
    static func channelPrices(_ record: HoldRecord) -> [String: Decimal] {
        var out: [String: Decimal] = [:]
        for part in (record.prices ?? "").split(separator: ";") where part.hasPrefix("c:") {
            let pair = part.dropFirst(2).split(separator: "=", maxSplits: 1)
            if pair.count == 2, let amount = PriceTable.parseDecimal(String(pair[1])) { out[String(pair[0])] = amount }
        }
        return out
    }

    /// A partner's pricing of `seats`: each at its channel's price for its category, where the channel has one.
    func partnerPricing(_ base: HoldPricing, seats: [SeatIndex], channel: HoldRecord, in state: ShowState) -> HoldPricing {
        let prices = Self.channelPrices(channel)
        guard !prices.isEmpty else { return base }
        var p = base
        for seat in seats { if let amount = prices[state.layout.zone(of: seat).category] { p.overrides[seat] = amount } }
        return p
    }

    /// The channel a partner's hold drew from (`p_…@X` → `c_X`), nil for any other hold.
    public static func channelID(ofHold id: String) -> String? {
        guard id.hasPrefix("p_"), let at = id.firstIndex(of: "@") else { return nil }
        return "c_" + id[id.index(after: at)...]
    }

    static func isChannel(_ record: HoldRecord) -> Bool { record.kind == .blocked && record.id.hasPrefix("c_") }

    /// Makes the channel: every seat and place or none (a taken one is a 409 naming it), and its key,
    /// shown this once.
    package func beginCreateChannel(show showID: String, _ new: NewChannel, by operatorName: String) throws(Refusal) -> (
        ChannelView, key: String, CommitTicket
    ) {
        let now = clock()
        let (random, key) = Self.randomIDAndToken(prefix: idPrefix(show: showID, now))
        let id = "c_" + random, digest = Secrets.tokenDigest(key)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (ChannelView, key: String, CommitTicket) in
            let state = try state(forShow: showID, in: m)
            try checkNotCancelled(state)
            if let at = new.releaseAt, at <= now { throw Refusal.invalid(path: "releaseAt", "has passed: the seats would return to sale at once") }
            if let at = new.releaseAt, let ends = state.endsAtMilliseconds, at > ends {
                throw Refusal.invalid(path: "releaseAt", "\(Self.isoTime(at)) is after show \(showID) ends (\(Self.isoTime(ends)))")
            }
            let named = try resolve(new.seatIDs, in: state.layout)
            try checkFree(named, in: state, own: [])
            let seats = Set(named + (try choosePlaces(new.places, in: state, besides: named))).sorted()
            guard !seats.isEmpty else { throw Refusal(.noSeats, detail: "a channel needs at least one seat or place") }
            let table = state.prices.table
            for (category, amount) in new.prices.sorted(by: { $0.key < $1.key }) {
                guard table.categoryPrices[category] != nil else {
                    throw Refusal.invalid(
                        path: "prices.\(category)",
                        "show \(showID) has no category \"\(category)\" (it has \(table.categoryPrices.keys.sorted().joined(separator: ", ")))")
                }
                guard PriceTable.round(amount, minorUnits: table.minorUnits) == amount else {
                    throw Refusal.invalid(path: "prices.\(category)", "\(amount) has more decimals than \(table.currency) (\(table.minorUnits))")
                }
            }
            let prices = new.prices.isEmpty ? nil : new.prices.keys.sorted().map { "c:\($0)=\(table.amountString(new.prices[$0]!))" }.joined(separator: ";")
            let record = HoldRecord(
                id: id, tokenDigest: digest, showID: showID, state: .active, expiresAt: new.releaseAt ?? Self.never, extended: false, orderRef: nil,
                wheelchair: false, createdAt: now, kind: .blocked, reason: new.name, operatorName: operatorName, prices: prices)
            let ticket = try apply(
                state, in: m, changes: seats.map { SeatChange(seat: $0, status: .blocked) },
                insert: seats.map { Claim(seat: $0, status: .blocked, holdID: id) }, holds: [record],
                log: LogEntry(action: "channel", holdID: id, operatorName: operatorName, reason: new.name))
            let hold = ActiveHold(record: record, seats: seats)
            state.holds[digest] = hold
            m.holdShow[digest] = showID
            metrics.count("channels_made")
            return (channelView(hold, in: state), key, ticket)
        }
    }

    /// The show's live channels, oldest first.
    public func channels(show showID: String) throws(Refusal) -> [ChannelView] {
        let read = try readReservations(show: showID, buyersToo: true)
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> [ChannelView] in
            for snapshot in read { apply(snapshot, in: m) }
            let state = try state(forShow: showID, in: m)
            return state.holds.values.filter { Self.isChannel($0.record) }.sorted { $0.record.id < $1.record.id }.map { channelView($0, in: state) }
        }
    }

    /// A live channel by id (after the store's word, as reservations are read).
    public func channel(id: String) throws(Refusal) -> ChannelView {
        let snapshot = try readReservation(id)
        return try locked { (m: Memory) throws(Refusal) -> ChannelView in
            apply(snapshot, in: m)
            let (state, hold) = try liveReservation(id, in: m)
            guard Self.isChannel(hold.record) else { throw Refusal(.notFound, detail: "no channel \(id)") }
            return channelView(hold, in: state)
        }
    }

    func channelView(_ hold: ActiveHold, in state: ShowState) -> ChannelView {
        let r = hold.record
        let partners = state.holds.values.filter { Self.channelID(ofHold: $0.record.id) == r.id }
        return ChannelView(
            id: r.id, showID: r.showID, name: r.reason ?? "", seatIDs: hold.seats.map(state.layout.seatID),
            held: partners.reduce(0) { $0 + $1.seats.count }, releaseAt: r.expiresAt >= Self.never ? nil : r.expiresAt,
            operatorName: r.operatorName ?? "", createdAt: r.createdAt, prices: Self.channelPrices(r).mapValues { Money($0, of: state.prices.table) })
    }

    /// The live channel a key opens, for this show: a key of no channel is a 403, of another show's a
    /// 403 that says so. Under the lock.
    func channel(key: String, show showID: String, in m: Memory) throws(Refusal) -> (ShowState, ActiveHold) {
        let digest = Secrets.tokenDigest(key)
        guard let owner = m.holdShow[digest], let state = m.shows[owner], let hold = state.holds[digest], Self.isChannel(hold.record) else {
            throw Refusal(.channelKey, detail: "Seat-Channel: not the key of a live channel (released, ended, or never made)")
        }
        guard owner == showID else { throw Refusal(.channelKey, detail: "Seat-Channel: the key is a channel of show \(owner), not of \(showID)") }
        return (state, hold)
    }

    /// A partner's hold: seats by id and places by count, all from its channel, or nothing (a seat the
    /// channel does not have is a 409 naming it). The claims move from the channel to the hold in one
    /// commit.
    package func beginCreateChannelHold(
        show showID: String, key: String, seatIDs: [String], places: [(area: String, count: Int)], wheelchair: Bool
    ) throws(Refusal) -> (HoldView, CommitTicket) {
        let now = clock()
        let (id, token) = Self.randomIDAndToken(prefix: idPrefix(show: showID, now))
        let tokenDigest = Secrets.tokenDigest(token)
        // With a shared store the channel may be another instance's, its seats changed there a moment
        // ago: read (outside the lock, one query) and applied first, as every hold operation does.
        let snapshot = try readHold(tokenDigest: Secrets.tokenDigest(key))
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> (HoldView, CommitTicket) in
            apply(snapshot, in: m)
            let (state, channel) = try channel(key: key, show: showID, in: m)
            try checkOnSale(state)
            guard !seatIDs.isEmpty || !places.isEmpty else { throw Refusal(.noSeats, detail: "a hold needs at least one seat or place") }
            let named = try resolve(seatIDs, in: state.layout)
            let own = Set(channel.seats)
            let outside = named.filter { !own.contains($0) }
            if !outside.isEmpty {
                throw Refusal(
                    .seatsTaken,
                    detail: "not in channel \(channel.record.reason ?? channel.record.id): "
                        + outside.map(state.layout.seatID).joined(separator: ", "),
                    details: [.conflicts(outside.map { (state.layout.seatID($0), state.availability[$0].name) }, version: state.availability.version)])
            }
            let seats = Set(named + (try choosePlaces(places, among: own, in: state, besides: named))).sorted()
            try checkRules(seats, in: state, own: Set(seats), wheelchair: wheelchair)
            let record = HoldRecord(
                id: "p_" + id + "@" + channel.record.id.dropFirst(2), tokenDigest: tokenDigest, showID: showID, state: .active,
                expiresAt: now + Int64(state.record.holdSeconds) * 1000, extended: false, orderRef: nil, wheelchair: wheelchair, createdAt: now,
                prices: partnerPricing(state.currentPricing, seats: seats, channel: channel.record, in: state).stored(in: state.prices.table))
            let hold = ActiveHold(record: record, seats: seats)
            let ticket = try apply(
                state, in: m, changes: seats.map { SeatChange(seat: $0, status: .held) },
                insert: seats.map { Claim(seat: $0, status: .held, holdID: record.id) }, delete: seats, holds: [record, channel.record],
                log: LogEntry(action: "hold", holdID: record.id, reason: channel.record.reason))
            state.holds[channel.record.tokenDigest] = ActiveHold(record: channel.record, seats: channel.seats.filter { !seats.contains($0) })
            state.holds[tokenDigest] = hold
            m.holdShow[tokenDigest] = showID
            metrics.count("channel_holds")
            return (view(hold, in: state, token: token), ticket)
        }
    }

    /// A partner's hold changed: seats added come from its channel (a seat outside it is a 409 naming
    /// it), seats let go go back to it while it lives (else to the public sale), places by count
    /// likewise; the claims move in one commit, as when the hold was made. Under the lock.
    func modifyPartnerHold(
        _ hold: ActiveHold, token plain: String, add: [String], remove: [String], places: [(area: String, count: Int)], in state: ShowState,
        _ m: Memory
    ) throws(Refusal) -> (HoldView, CommitTicket?) {
        let channel = channelTakingBack(hold.record, in: state)
        var adding = try resolve(add, in: state.layout), removing = try resolve(remove, in: state.layout)
        let own = Set(hold.seats), pool = Set(channel?.seats ?? [])
        for (id, target) in places {
            guard let placed = state.layout.area(id: id) else {
                throw Refusal.invalid(path: "areas.\(id)", "no standing area \(id) in venue \(state.layout.id)")
            }
            let mine = placed.places.filter { own.contains($0) }
            if target > mine.count {
                adding += try choosePlaces([(id, target - mine.count)], among: pool, in: state, besides: adding)
            } else {
                removing += mine.suffix(mine.count - target)
            }
        }
        if !adding.isEmpty { try checkOnSale(state) }
        let notHeld = removing.filter { !own.contains($0) }
        if !notHeld.isEmpty {
            throw Refusal(.notInHold, detail: "not in this hold: \(notHeld.map { state.layout.seatID($0) }.joined(separator: ", "))")
        }
        let outside = adding.filter { !own.contains($0) && !pool.contains($0) }
        if !outside.isEmpty {
            let name = channel.map { $0.record.reason ?? $0.record.id } ?? "(ended)"
            throw Refusal(
                .seatsTaken, detail: "not in channel \(name): " + outside.map(state.layout.seatID).joined(separator: ", "),
                details: [.conflicts(outside.map { (state.layout.seatID($0), state.availability[$0].name) }, version: state.availability.version)])
        }
        let result = own.union(adding).subtracting(removing).sorted()
        if !result.isEmpty { try checkRules(result, in: state, own: own.union(adding), wheelchair: hold.record.wheelchair) }
        let added = result.filter { !own.contains($0) }, dropped = hold.seats.filter { !result.contains($0) }
        var record = hold.record
        if result.isEmpty { record.state = .released }
        var pricing = state.pricing(HoldPricing(stored: record.prices), adding: added, removing: dropped)
        if let channel { pricing = partnerPricing(pricing, seats: added, channel: channel.record, in: state) }
        record.prices = pricing.stored(in: state.prices.table)
        let back: SeatStatus = channel == nil ? .available : .blocked
        let ticket = try apply(
            state, in: m, changes: added.map { SeatChange(seat: $0, status: .held) } + dropped.map { SeatChange(seat: $0, status: back) },
            insert: added.map { Claim(seat: $0, status: .held, holdID: record.id) }
                + (channel.map { c in dropped.map { Claim(seat: $0, status: .blocked, holdID: c.record.id) } } ?? []),
            delete: added + dropped, holds: [record] + (channel.map { [$0.record] } ?? []),
            log: LogEntry(action: result.isEmpty ? "release" : "modify", holdID: record.id, reason: channel?.record.reason))
        if let channel {
            let left = Set(channel.seats).subtracting(added).union(dropped)
            state.holds[channel.record.tokenDigest] = ActiveHold(record: channel.record, seats: left.sorted())
        }
        let updated = ActiveHold(record: record, seats: result)
        if result.isEmpty { m.ended(record, in: state) } else { state.holds[record.tokenDigest] = updated }
        return (view(updated, in: state, token: plain), ticket)
    }

    /// `asked` places of each area chosen among `own` (a channel's), at random, or a 409 saying how
    /// many it has. Under the lock.
    func choosePlaces(
        _ asked: [(area: String, count: Int)], among own: Set<SeatIndex>, in state: ShowState, besides named: [SeatIndex]
    ) throws(Refusal) -> [SeatIndex] {
        var chosen: [SeatIndex] = []
        let excluded = Set(named)
        for (id, count) in asked where count > 0 {
            guard let placed = state.layout.area(id: id) else { throw Refusal.invalid(path: "areas.\(id)", "no area \"\(id)\" in this venue") }
            let free = placed.places.filter { own.contains($0) && !excluded.contains($0) }
            guard free.count >= count else {
                throw Refusal(.areaFull, detail: "\(id): the channel has \(free.count) of its places, \(count) asked")
            }
            chosen += free.shuffled().prefix(count)
        }
        return chosen
    }

    /// Where a partner's hold's seats go when it ends unsold: back to its channel while the channel
    /// lives, else to the public sale. Under the lock.
    func channelTakingBack(_ record: HoldRecord, in state: ShowState) -> ActiveHold? {
        guard let channelID = Self.channelID(ofHold: record.id) else { return nil }
        return state.holds.values.first { $0.record.id == channelID && Self.isChannel($0.record) }
    }

    /// What a channel's partner may take, as an availability: the channel's seats and places free, every
    /// other seat not (best available "in its allocation" reads it).
    /// - Complexity: O(seats).
    public func channelAvailability(show showID: String, key: String) throws(Refusal) -> SeatAvailability {
        let snapshot = try readHold(tokenDigest: Secrets.tokenDigest(key))
        return try lockedWhenFresh(show: showID) { (m: Memory) throws(Refusal) -> SeatAvailability in
            apply(snapshot, in: m)
            let (state, channel) = try channel(key: key, show: showID, in: m)
            var out = SeatAvailability(layout: state.layout)
            let own = Set(channel.seats)
            for i in state.layout.seatIndices where !own.contains(i) { _ = out.setStatus(.blocked, for: i) }
            out.commit(version: state.availability.version)
            return out
        }
    }

    /// How a sale came, for orders and reports: `online`, `counter`, or `partner:NAME` (its channel's
    /// name from `names` or this instance's memory; its id when neither knows it).
    func salesChannel(_ r: HoldRecord, names: [String: String] = [:], in state: ShowState?) -> String {
        if Self.seasonID(ofHold: r.id) != nil, let reason = r.reason, reason.hasPrefix("season: ") {
            return "season:" + (reason.dropFirst(8).split(separator: ";", maxSplits: 1).first.map(String.init) ?? "")
        }
        guard let channelID = Self.channelID(ofHold: r.id), !Self.isWaitlistPool(id: channelID) else { return r.kind == .buyer ? "online" : "counter" }
        let name = names[channelID] ?? state?.holds.values.first { $0.record.id == channelID }?.record.reason ?? channelID
        return "partner:" + name
    }

    /// The names of the channels `sales` came through, read from the store (a channel ended is there
    /// only). Off the lock.
    func channelNames(of sales: [(record: HoldRecord, seats: [Int])]) throws(Refusal) -> [String: String] {
        var names: [String: String] = [:]
        for id in Set(sales.compactMap { Self.channelID(ofHold: $0.record.id) }) where !Self.isWaitlistPool(id: id) {
            do { if let r = try store.holdWithSeats(id: id)?.record { names[id] = r.reason ?? id } } catch { throw Self.storeRefusal(error) }
        }
        return names
    }

    /// How a sale was paid: its word (cash, card, wechat…), `online` for a buyer's, `partner` for a
    /// partner's (paid at the partner); nil for a counter sale without one.
    static func paymentWord(_ r: HoldRecord) -> String? {
        r.payment ?? (isPartnerHold(id: r.id) ? "partner" : r.kind == .buyer ? "online" : nil)
    }
}
