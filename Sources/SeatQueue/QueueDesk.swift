import Foundation
import SeatDomain
import SeatSecrets
import SharedState

/// Every show's waiting room on this instance: a mirror of each room kept in memory (polls are
/// answered from it, no store read), and every decision taken under the room's lock in the store with
/// the mirror brought up to date first (`QueueStore.updateQueue`), so several instances share one line
/// and a restart loses no place. `tick` (about once a second, from the app's thread) reads what the
/// other instances decided, writes back which pages are still asking, and lets buyers in.
///
/// Lock: `rooms` (a leaf; never a store call under it: the store's lock is taken first and the rooms'
/// inside `decide`). The queue key signs admissions and derives each room's shuffle seed, so every
/// instance given the same key agrees, and a copy of the database can neither forge an admission nor
/// predict a shuffle.
public final class QueueDesk: Sendable {
    let store: any QueueStore
    let key: [UInt8]
    let abandonMilliseconds: Int64
    let rooms = Locked(Rooms())
    /// Joins waiting for their show's next decision (`QueueDesk+Joins.swift`); a show's line exists
    /// while its decider runs. Lock: its own, a leaf (never held across a decision, which takes the
    /// store's lock and then `rooms`).
    let joinLines = Locked([String: JoinLine]())
    /// [joins decided, decisions they took]. Lock: its own.
    let joinCounts = Locked([0, 0])
    /// When each show's last catch-up read began (Unix ms; `catchUp`). Lock: its own, held across that
    /// one store read so catch-ups of a desk run one at a time (a store call under it, never `rooms`'s
    /// lock: `rooms` is taken inside it, a leaf as everywhere).
    let catchUps = Locked([String: Int64]())

    struct Rooms {
        var byShow: [String: Mirror] = [:]
        /// Entry key → show, for `GET /v1/queue/{entry}` (whose path names no show).
        var showOfEntry: [String: String] = [:]
    }

    struct Mirror {
        var room: WaitingRoom
        /// The store's revision the mirror has taken in.
        var revision: Int64
        var offAt: Int64?
        /// A decision failed to commit: the mirror may hold what the store does not; rebuilt on the next tick.
        var stale = false
    }

    /// Loads every room from the store (a restarting instance): places, admissions and the opening as
    /// they were; every page still waiting gets a fresh 30 s.
    public init(store: any QueueStore, key: [UInt8], now: Int64, abandonMilliseconds: Int64 = WaitingRoom.defaultAbandonMilliseconds) throws {
        self.store = store
        self.key = key
        self.abandonMilliseconds = abandonMilliseconds
        for record in try store.rooms() { try reload(show: record.showID, now: now) }
    }

    /// The seed a room's shuffle is keyed by: HMAC of the queue key over the show and the room's
    /// creation, never stored (its SHA-256 is published while the room is open for early arrivals).
    func seed(show: String, createdAt: Int64) -> [UInt8] {
        HMACSHA256.code(key: key, message: Array("seatkit-queue-seed\u{1F}\(show)\u{1F}\(createdAt)".utf8))
    }

    /// What the store keeps of an entry id: a digest (the id polls the place and receives the admission).
    public static func entryKey(_ entry: String) -> String {
        String(SHA256.hex(SHA256.hash("seatkit-queue-entry\u{1F}" + entry)).prefix(40))
    }

    /// What the store keeps of a buyer's address: digests, enough to count places per network and per
    /// address: the network's (16 hex digits), a `.`, the address's (24).
    public static func addressKey(_ address: String) -> String {
        String(SHA256.hex(SHA256.hash("seatkit-queue-network\u{1F}" + network(of: address))).prefix(16)) + "."
            + String(SHA256.hex(SHA256.hash("seatkit-queue-address\u{1F}" + address)).prefix(24))
    }

    /// The network an address is in, as text: its IPv4 /24 (`203.0.113`) or its IPv6 /64 (`2001:db8:0:7`,
    /// each group without leading zeros); an IPv4-mapped IPv6 address is its IPv4 address's. Text that
    /// is neither is its own network.
    /// - Complexity: O(n) in the address's length.
    public static func network(of address: String) -> String {
        var text = Substring(address.lowercased())
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        let v4 = text.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, !text.contains(":"), v4.allSatisfy({ UInt8($0) != nil }) { return v4.prefix(3).joined(separator: ".") }
        guard text.contains(":") else { return address }
        // Expand "::" to the zero groups it stands for; an IPv4 tail counts as two groups.
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return address }
        func groups(_ s: String) -> [String]? {
            if s.isEmpty { return [] }
            var out: [String] = []
            for part in s.split(separator: ":", omittingEmptySubsequences: false) {
                if part.contains(".") {
                    let octets = part.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
                    guard octets.count == 4 else { return nil }
                    out += [String(UInt16(octets[0]) << 8 | UInt16(octets[1]), radix: 16), String(UInt16(octets[2]) << 8 | UInt16(octets[3]), radix: 16)]
                } else {
                    guard let v = UInt16(part, radix: 16), part.count <= 4 else { return nil }
                    out.append(String(v, radix: 16))
                }
            }
            return out
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return address }
        let missing = 8 - head.count - tail.count
        guard halves.count == 2 ? missing >= 1 : missing == 0 else { return address }
        let all = head + Array(repeating: "0", count: max(0, missing)) + tail
        // ::ffff:a.b.c.d is an IPv4 address in IPv6 clothes.
        if all[0..<5].allSatisfy({ $0 == "0" }) && all[5] == "ffff", let hi = UInt16(all[6], radix: 16), let lo = UInt16(all[7], radix: 16) {
            return "\(hi >> 8).\(hi & 0xFF).\(lo >> 8)"
        }
        return all.prefix(4).joined(separator: ":")
    }

    /// A new entry id: 128 random bits, hex.
    static func newEntryID() -> String {
        var rng = SystemRandomNumberGenerator()
        return "q" + (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &rng)) }.joined()
    }

    /// Rebuilds a show's mirror from the store (start, or after a failed decision).
    func reload(show: String, now: Int64) throws {
        let changes = try store.queueChanges(show: show, after: 0)
        guard let record = changes.room else {
            rooms.withLock { $0.byShow[show] = nil }
            return
        }
        var room = makeRoom(record)
        room.apply(changes)
        room.forgive(now: now)
        _ = room.takeDecisions()
        let mirror = Mirror(room: room, revision: changes.revision, offAt: record.offAt)
        rooms.withLock { r in
            r.byShow[show] = mirror
            for e in mirror.room.entries { r.showOfEntry[e.id] = show }
        }
    }

    func makeRoom(_ r: QueueRecord) -> WaitingRoom {
        var room = WaitingRoom(
            showID: r.showID,
            settings: QueueSettings(r),
            seed: seed(show: r.showID, createdAt: r.createdAt), createdAt: r.createdAt)
        room.abandonMilliseconds = abandonMilliseconds
        return room
    }

    /// Takes one decision about `show`'s room under its lock in the store: the mirror brought up to
    /// date, `body` run on it (nil: no room), what it changed written. A failed write marks the mirror
    /// for rebuilding. `body` may throw only before it changes the mirror. `lifeSigns`: the pages' life
    /// signs are written too (the tick's decision).
    func decide<T>(show: String, now: Int64, lifeSigns: Bool = false, _ body: (inout Mirror, Int64) throws -> T) throws -> T {
        let since = rooms.withLock { $0.byShow[show]?.revision ?? 0 }
        var result: T?
        do {
            let written = try store.updateQueue(show: show, after: since) { changes, next in
                try rooms.withLock { r in
                    // Taken out of the dictionary while it changes: changed in place there, the room's
                    // arrays were copied whole on every decision (O(n) a join: 1,470 joins a second).
                    guard var mirror = r.byShow.removeValue(forKey: show) else { throw QueueError.noQueue(show) }
                    mirror.room.apply(changes)
                    mirror.offAt = changes.room?.offAt ?? mirror.offAt
                    for e in changes.entries { r.showOfEntry[e.key] = show }
                    mirror.revision = max(mirror.revision, changes.revision)
                    // `body` throws only before it changes the mirror (a room switched off meanwhile).
                    do { result = try body(&mirror, next) } catch {
                        r.byShow[show] = mirror
                        throw error
                    }
                    mirror.room.numberNew(next)
                    // What the mirror now says is the write's revision: a page told it between the write
                    // and its answer must not read as older than another instance's view of the same revision.
                    mirror.revision = max(mirror.revision, next)
                    // Pages' life signs are written by the tick's decision, once a second: gathering them
                    // walks every entry (O(n): it was most of a join's time with 10,000 waiting).
                    let entries = lifeSigns ? mirror.room.takeWrites() : mirror.room.takeDecisions()
                    for e in entries { r.showOfEntry[e.key] = show }
                    var room = mirror.room.record()
                    room.offAt = mirror.offAt
                    r.byShow[show] = mirror
                    return QueueWrite(room: room, entries: entries)
                }
            }
            rooms.withLock { r in
                if var m = r.byShow[show] {
                    m.revision = max(m.revision, written)
                    r.byShow[show] = m
                }
            }
        } catch let error as QueueError {
            throw error
        } catch {
            rooms.withLock { $0.byShow[show]?.stale = true }
            throw error
        }
        return result!
    }
}

/// What a queue request can fail on, each a problem at the API.
public enum QueueError: Error, Sendable, Equatable {
    /// The show has no waiting room.
    case noQueue(String)
    /// The room was switched off: buy without one.
    case off(String)
    /// The early arrivals were shuffled at this instant: the opening cannot move.
    case alreadyOpen(Int64)
    /// The draw was made at this instant: its time and its winners cannot change.
    case alreadyDrawn(Int64)
    case join(WaitingRoom.JoinRefusal)
    /// The room asks a proof of work at joining: none was given.
    case proofRequired(bits: Int)
    case proof(JoinChallenge.Problem)
    case pass(LanePass.Problem)
}
