import Foundation
import SeatDomain
import SharedState

@testable import SeatStorage

/// The processes and the clock of a scenario the coordinator tests play: every transaction a fake
/// shard commits is numbered, and the scenario may kill the process before any one of them (nothing
/// of that transaction is written, and every later call of the dead process fails), or make one
/// commit whose answer never arrives (written, but the caller is told the database went away).
/// Lock: `state` (a leaf).
final class FakeWorld: Sendable {
    struct State {
        var commits = 0
        var killBefore: Set<Int> = []
        var loseAnswerOf: Set<Int> = []
        var dead = false
        var log: [String] = []
    }
    let state = Locked(State())

    struct Killed: Error {}

    /// The next commit, named `what`: throws `Killed` when the process dies before it (and for every
    /// call once dead); `StoreError.unavailable` after writing when its answer is lost. `write` is
    /// the transaction's effect, applied only when it commits.
    func commit(_ what: String, _ write: () -> Void) throws {
        let (n, dies, lost) = try state.withLock { s -> (Int, Bool, Bool) in
            if s.dead { throw Killed() }
            s.commits += 1
            s.log.append("\(s.commits) \(what)")
            let dies = s.killBefore.contains(s.commits)
            if dies { s.dead = true }
            return (s.commits, dies, s.loseAnswerOf.contains(s.commits))
        }
        if dies { throw Killed() }
        write()
        if lost { throw StoreError.unavailable(cause: "the answer to commit \(n) (\(what)) was lost") }
    }

    /// Fails once the process is dead (a call that commits nothing still needs a live process).
    func alive() throws { if state.withLock({ $0.dead }) { throw Killed() } }

    /// A new process (the commits keep their numbers, so a later fault strikes it).
    func restart() { state.withLock { $0.dead = false } }

    /// No more faults from here on.
    func calm() {
        state.withLock { s in
            s.killBefore = []
            s.loseAnswerOf = []
        }
    }
}

/// A shard kept in memory with the semantics the coordinator relies on from PostgreSQL: a show's rows
/// (its sale switch and its sales, as one row here), the moves' records, the venues; each call one
/// transaction that commits whole or not at all (`FakeWorld.commit`); a shard that is down answers
/// `StoreError.unavailable`. Its rows travel as the strings a move copies.
/// Lock: `state` (a leaf; `copy` and `discard` are called outside it, as the target's transactions
/// are outside the source's lock in memory, though inside its transaction).
final class FakeShard: MovingShard {
    struct Show: Hashable {
        var onSale: Bool
        var sales: [String]

        var row: String { (onSale ? "on" : "off") + "|" + sales.joined(separator: ",") }
        init(onSale: Bool, sales: [String]) { self.onSale = onSale; self.sales = sales }
        init?(row: String) {
            let parts = row.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            onSale = parts[0] == "on"
            sales = parts[1].isEmpty ? [] : parts[1].split(separator: ",").map(String.init)
        }
    }

    struct State {
        var shows: [String: Show] = [:]
        var moves: [String: (move: ShardMove, state: ShardMoveState)] = [:]
        var venues: [String: String] = [:]
        var down = false
        /// Refuses copies (a write the database cannot take, not an outage).
        var refusesCopies = false
    }

    let name: String
    let world: FakeWorld
    let state = Locked(State())

    init(_ name: String, world: FakeWorld) { self.name = name; self.world = world }

    var current: State { state.withLock { $0 } }

    private func reachable() throws -> State {
        try world.alive()
        let s = current
        if s.down { throw StoreError.unavailable(cause: "shard \(name) is down") }
        return s
    }

    // MARK: The shows' own changes (what the box office does meanwhile).

    func sell(show: String, seat: String) throws {
        var s = try reachable().shows
        guard s[show] != nil else { throw StoreError.conflict("no show \(show) on \(name)") }
        s[show]!.sales.append(seat)
        try world.commit("\(name): sell \(seat)") { state.withLock { $0.shows = s } }
    }

    func switchSales(show: String, on: Bool) throws {
        var s = try reachable().shows
        guard s[show] != nil else { throw StoreError.conflict("no show \(show) on \(name)") }
        s[show]!.onSale = on
        try world.commit("\(name): on sale \(on)") { state.withLock { $0.shows = s } }
    }

    // MARK: MovingShard

    func recordMove(_ move: ShardMove) throws {
        _ = try reachable()
        try world.commit("\(name): record \(move.id) copying") { state.withLock { $0.moves[move.id] = (move, .copying) } }
    }

    func settle(_ move: ShardMove, copy: ([String: String]) throws -> Void, discard: () throws -> Void) throws -> ShardMoveSettlement {
        let s = try reachable()
        guard let recorded = s.moves[move.id] else { throw StoreError.conflict("\(move) is not recorded on shard \(name)") }
        guard recorded.state == .copying else { return .alreadySettled(recorded.state) }
        guard let show = s.shows[move.show], !show.onSale else {
            try discard()
            try world.commit("\(name): \(move.id) rolled back") { state.withLock { $0.moves[move.id]?.state = .rolledBack } }
            return .rolledBack(s.shows[move.show] == nil ? .unknownShow(move.show) : .onSale(show: move.show))
        }
        try copy(["shows": show.row])
        try world.commit("\(name): \(move.id) source deleted") {
            state.withLock { s in
                s.shows[move.show] = nil
                s.moves[move.id]?.state = .sourceDeleted
            }
        }
        return .moved
    }

    func abandon(_ move: ShardMove, discard: () throws -> Void) throws -> ShardMoveState {
        let s = try reachable()
        guard let recorded = s.moves[move.id] else { throw StoreError.conflict("\(move) is not recorded on shard \(name)") }
        guard recorded.state == .copying else { return recorded.state }
        try discard()
        try world.commit("\(name): \(move.id) abandoned") { state.withLock { $0.moves[move.id]?.state = .rolledBack } }
        return .rolledBack
    }

    func unsettledMoves() throws -> [ShardMove] {
        try reachable().moves.values.filter { $0.state == .copying }.map(\.move).sorted { $0.id < $1.id }
    }

    func putIn(_ move: ShardMove, rows: [String: String]) throws {
        let s = try reachable()
        if s.refusesCopies { throw StoreError.conflict("shard \(name) refuses the copy") }
        guard let show = rows["shows"].flatMap(Show.init(row:)) else { throw StoreError.conflict("no show row in the copy") }
        try world.commit("\(name): \(move.id) copied") {
            state.withLock { s in
                s.shows[move.show] = show
                s.moves[move.id] = (move, .copied)
            }
        }
    }

    func discardCopy(_ move: ShardMove) throws {
        let s = try reachable()
        guard s.moves[move.id]?.state == .copied else { return }
        try world.commit("\(name): \(move.id) copy discarded") {
            state.withLock { s in
                s.shows[move.show] = nil
                s.moves[move.id]?.state = .rolledBack
            }
        }
    }

    func venueFingerprints() throws -> [String: String] { try reachable().venues }

    func venue(id: String) throws -> (fingerprint: String, layout: [UInt8])? {
        try reachable().venues[id].map { ($0, Array("layout of \(id)".utf8)) }
    }

    func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        _ = try reachable()
        try world.commit("\(name): venue \(id)") { state.withLock { $0.venues[id] = fingerprint } }
    }
}
