import Foundation
import SeatDomain
import SharedState
import Testing

@testable import SeatStorage

/// The coordinator's moves and repairs over two in-memory shards (`FakeShard`), deterministic: every
/// interleaving of a move with a kill, a lost answer, the box office's work and an outage, each
/// checked for where the show ends, what it keeps and what its records say. `ShardTests` runs the same
/// coordinator on two real PostgreSQL clusters.
@Suite struct ShardCoordinatorTests {
    /// One instance: a coordinator over the shards, and the directory its `placed` keeps.
    final class Instance: Sendable {
        let directory = Locked([String: String]())
        let notes = Locked([String]())
        let coordinator: ShardCoordinator<FakeShard>

        /// Opened as `ShardedStore` opens: each show where a shard has it (the first listed on a tie),
        /// then a repair round.
        init(_ shards: [FakeShard], repair: Bool = true) {
            let directory = self.directory, notes = self.notes
            coordinator = ShardCoordinator(
                shards: { shards }, placed: { show, shard, _ in directory.withLock { $0[show] = shard } },
                note: { text in notes.withLock { $0.append(text) } })
            for shard in shards.reversed() where !shard.current.down {
                for id in shard.current.shows.keys { directory.withLock { $0[id] = shard.name } }
            }
            if repair { coordinator.repair() }
        }

        /// What the store's reads of every shard's shows do to the directory (the follower's, every
        /// second): `ShardedStore.relocated`, over the shards that answer.
        func relearn(_ shards: [FakeShard]) {
            let read = shards.filter { !$0.current.down }.map { (shard: $0.name, ids: Set($0.current.shows.keys)) }
            directory.withLock { d in for (id, shard) in ShardedStore.relocated(d, read: read) { d[id] = shard } }
        }
    }

    /// What the box office or another instance does while a move is under way (on the shard the show
    /// serves from), and when: right after the move is recorded, or once its mover is done or dead.
    enum Meanwhile: CaseIterable {
        case nothing, counterSale, salesSwitchedOn, anotherInstanceRepairs
    }
    enum When: CaseIterable {
        case recorded, afterTheMover
    }

    /// Which shard is down during the first repair after the kill.
    enum Outage: CaseIterable {
        case none, target, source
    }

    struct Scenario: CustomStringConvertible {
        /// The process running dies before these commits (numbered across the scenario).
        var kills: Set<Int>
        /// These commits are written, and their answers lost.
        var lostAnswers: Set<Int>
        var meanwhile: Meanwhile
        var when: When
        var outage: Outage
        var description: String {
            "kills before commits \(kills.sorted()), answers of commits \(lostAnswers.sorted()) lost, "
                + "\(meanwhile) \(when), \(outage) down at the first repair"
        }
    }

    /// What a scenario left, and what it must have left.
    struct Result {
        var problems: [String] = []
        var log: [String] = []
    }

    /// Plays one scenario: a show with one sale, off sale on east, moved to west by one instance that
    /// may die before any commit (or lose one commit's answer) while the box office or another
    /// instance works; then a new instance opens the shards (one of them possibly down, then back)
    /// and settles what is left.
    func play(_ scenario: Scenario) throws -> Result {
        let world = FakeWorld()
        let east = FakeShard("east", world: world), west = FakeShard("west", world: world)
        east.state.withLock { $0.shows["s"] = .init(onSale: false, sales: ["1-1"]) }
        var acknowledged: Set<String> = ["1-1"]
        world.state.withLock { s in
            s.killBefore = scenario.kills
            s.loseAnswerOf = scenario.lostAnswers
        }
        let mover = Instance([east, west])
        var switchedOnBeforeSettling = false
        // Where the show serves from, as the move's records say (the source until its rows are gone).
        func serving() -> FakeShard {
            east.current.moves.values.contains { $0.state == .sourceDeleted } ? west : east
        }
        // Another instance's work, right after the move is recorded (no transaction is open then).
        func meanwhile(_ when: When) {
            guard when == scenario.when else { return }
            switch scenario.meanwhile {
            case .nothing: break
            case .counterSale:
                // Another instance's sale: its own process, so a kill of the mover does not stop it.
                let seat = "\(when)"
                serving().state.withLock { $0.shows["s"]?.sales.append(seat) }
                if serving().current.shows["s"]?.sales.contains(seat) == true { acknowledged.insert(seat) }
            case .salesSwitchedOn:
                serving().state.withLock { $0.shows["s"]?.onSale = true }
                if when == .recorded { switchedOnBeforeSettling = true }
            case .anotherInstanceRepairs:
                _ = Instance([east, west])
            }
        }
        var moved = false
        var moveError: (any Error)?
        let recordedHook = Locked(false)
        // The mover: its move recorded (commit 1), then the others' work, then settled.
        do {
            let move = ShardMove(show: "s", from: "east", to: "west")
            try east.recordMove(move)
            recordedHook.withLock { $0 = true }
            meanwhile(.recorded)
            switch try mover.coordinator.settle(move, source: east, target: west) {
            case .moved: moved = true
            case .rolledBack(let why): moveError = why
            case .alreadySettled(let state): moved = state == .sourceDeleted
            }
        } catch {
            moveError = error
        }
        meanwhile(.afterTheMover)
        world.restart()
        // A new instance opens the shards, one possibly down, then everything is up and it repairs again.
        let down: FakeShard? = scenario.outage == .target ? west : scenario.outage == .source ? east : nil
        down?.state.withLock { $0.down = true }
        let later = Instance([east, west])
        down?.state.withLock { $0.down = false }
        later.relearn([east, west])
        later.coordinator.repair()
        // The faults struck whichever instance ran; a last one opens the shards with nothing failing.
        let laterDied = world.state.withLock { $0.dead }
        world.restart()
        world.calm()
        let last = Instance([east, west], repair: false)
        last.relearn([east, west])
        last.coordinator.repair()

        var result = Result(log: world.state.withLock { $0.log })
        func problem(_ text: String) { result.problems.append(text) }
        let holders = [east, west].filter { $0.current.shows["s"] != nil }
        guard holders.count == 1, let holder = holders.first else {
            problem("the show is on \(holders.map(\.name)) shards")
            return result
        }
        let sales = Set(holder.current.shows["s"]!.sales)
        if !acknowledged.isSubset(of: sales) { problem("acknowledged sales lost: \(acknowledged.subtracting(sales).sorted())") }
        for shard in [east, west] where !(try shard.unsettledMoves()).isEmpty { problem("\(shard.name) still has an unsettled move") }
        let alive = [("the last instance", last)] + (laterDied ? [] : [("the instance that repaired", later)])
        for (name, instance) in alive where !instance.directory.withLock({ $0["s"] == holder.name }) {
            problem("\(name)'s directory says \(instance.directory.withLock { $0["s"] } ?? "nothing"), the show is on \(holder.name)")
        }
        let sourceState = east.current.moves.values.first?.state
        let targetState = west.current.moves.values.first?.state
        switch holder.name {
        case "west":
            if sourceState != .sourceDeleted || targetState != .copied {
                problem("on west, but the records say \(String(describing: sourceState)) / \(String(describing: targetState))")
            }
        default:
            if recordedHook.withLock({ $0 }) && sourceState != .rolledBack {
                problem("on east, but the source's record says \(String(describing: sourceState))")
            }
            if let targetState, targetState != .rolledBack { problem("on east, but west's record says \(targetState)") }
            if moved { problem("the mover was told the show moved, and it is on east") }
        }
        if switchedOnBeforeSettling && holder.name != "east" { problem("moved while on sale") }
        // Told it is on sale, unless the mover died or lost the answer (then it was told nothing sure).
        if switchedOnBeforeSettling, let moveError, !(moveError is PlacementError), !(moveError is FakeWorld.Killed),
            !ShardCoordinator<FakeShard>.isOutage(moveError)
        {
            problem("the mover was not told the show is on sale: \(moveError)")
        }
        if scenario.kills.isEmpty && scenario.lostAnswers.isEmpty && !switchedOnBeforeSettling && holder.name != "west" {
            problem("nothing went wrong and the show stayed on east")
        }
        return result
    }

    /// Every kill point and every lost answer of the scenario's commits, with each kind of work
    /// meanwhile and each outage at the repair: the show ends on one shard with every acknowledged
    /// sale, its records settled and saying where it is, and an acknowledged move never undone.
    @Test func everyInterleavingOfAMoveWithAKillSettles() throws {
        var scenarios: [Scenario] = []
        // The unkilled scenario commits at most 8 times (3 of the mover, 3 of another instance's repair,
        // 2 of a repair's rollback); every single fault, and every pair of kills (the second striking
        // the instance that repairs after the first).
        let points = Array(1...8)
        var faults: [(kills: Set<Int>, lost: Set<Int>)] = [([], [])]
        faults += points.map { ([$0], []) } + points.map { ([], [$0]) }
        for a in points { for b in points where b > a { faults.append(([a, b], [])) } }
        for meanwhile in Meanwhile.allCases {
            for when in meanwhile == .nothing ? [When.recorded] : When.allCases {
                for outage in Outage.allCases {
                    for f in faults { scenarios.append(Scenario(kills: f.kills, lostAnswers: f.lost, meanwhile: meanwhile, when: when, outage: outage)) }
                }
            }
        }
        var failed = 0, movedCount = 0, lostSales = 0
        for scenario in scenarios {
            let result = try play(scenario)
            if result.problems.contains(where: { $0.hasPrefix("acknowledged sales lost") }) { lostSales += 1 }
            if !result.problems.isEmpty {
                failed += 1
                Issue.record("\(scenario): \(result.problems.joined(separator: "; "))\n  commits: \(result.log.joined(separator: " · "))")
            }
            if result.log.contains(where: { $0.hasSuffix("source deleted") }) { movedCount += 1 }
        }
        print(
            "shard moves: \(scenarios.count) interleavings played, \(movedCount) ended moved, \(failed) with a problem, \(lostSales) losing an acknowledged sale"
        )
        #expect(scenarios.count == 7 * 3 * (1 + 8 + 8 + 28))
        #expect(movedCount > 0 && movedCount < scenarios.count, "both endings occur")
    }

    @Test func aShowOnSaleIsNotMovedAndTheRefusalIsRecorded() throws {
        let world = FakeWorld()
        let east = FakeShard("east", world: world), west = FakeShard("west", world: world)
        east.state.withLock { $0.shows["s"] = .init(onSale: true, sales: []) }
        let instance = Instance([east, west])
        #expect(throws: PlacementError.onSale(show: "s")) { try instance.coordinator.move(show: "s", from: east, to: west) }
        #expect(east.current.shows["s"] != nil && west.current.shows.isEmpty)
        #expect(east.current.moves.values.map(\.state) == [.rolledBack] && west.current.moves.isEmpty)
    }

    @Test func aCopyTheTargetRefusesRollsTheMoveBack() throws {
        let world = FakeWorld()
        let east = FakeShard("east", world: world), west = FakeShard("west", world: world)
        east.state.withLock { $0.shows["s"] = .init(onSale: false, sales: ["1-1"]) }
        west.state.withLock { $0.refusesCopies = true }
        let instance = Instance([east, west])
        #expect(throws: StoreError.self) { try instance.coordinator.move(show: "s", from: east, to: west) }
        #expect(east.current.moves.values.map(\.state) == [.rolledBack], "refused is settled: no repair round retries it")
        #expect(instance.directory.withLock { $0["s"] } == "east" && west.current.shows.isEmpty)
    }

    @Test func aMoveWhoseTargetIsDownWaitsForTheRoundAfterItReturns() throws {
        let world = FakeWorld()
        let east = FakeShard("east", world: world), west = FakeShard("west", world: world)
        east.state.withLock { $0.shows["s"] = .init(onSale: false, sales: []) }
        let instance = Instance([east, west])
        // The target goes away between the record and the copy: the move stays `copying`, the show on east.
        world.state.withLock { $0.loseAnswerOf = [2] }
        #expect(throws: StoreError.self) { try instance.coordinator.move(show: "s", from: east, to: west) }
        west.state.withLock { $0.down = true }
        #expect(instance.coordinator.repair().count == 1, "unsettled while west is down")
        #expect(instance.directory.withLock { $0["s"] } == "east")
        #expect(instance.notes.withLock { $0 }.last?.contains("could not be settled yet") == true)
        west.state.withLock { $0.down = false }
        #expect(instance.coordinator.repair().isEmpty)
        #expect(instance.directory.withLock { $0["s"] } == "west" && east.current.shows.isEmpty && west.current.shows["s"] != nil)
        #expect(instance.notes.withLock { $0 }.last?.hasSuffix("was interrupted; finished") == true)
    }

    @Test func venuesReachAShardOnceItAnswers() throws {
        let world = FakeWorld()
        let east = FakeShard("east", world: world), west = FakeShard("west", world: world), north = FakeShard("north", world: world)
        east.state.withLock { $0.venues = ["hall-1": "f1"] }
        west.state.withLock { $0.venues = ["hall-2": "f2"] }
        north.state.withLock { $0.down = true }
        let instance = Instance([east, west, north])
        instance.coordinator.copyMissingVenues()
        #expect(east.current.venues == ["hall-1": "f1", "hall-2": "f2"] && west.current.venues == east.current.venues)
        #expect(north.current.venues.isEmpty)
        north.state.withLock { $0.down = false }
        instance.coordinator.copyMissingVenues()
        #expect(north.current.venues == east.current.venues)
    }

    @Test func aNewShowGoesToTheShardWithFewestShowsToCome() {
        let world = FakeWorld()
        let shards = ["east", "west", "north"].map { FakeShard($0, world: world) }
        #expect(ShardCoordinator.leastBusy(shards, upcoming: [:])?.name == "east", "the first listed on a tie")
        #expect(ShardCoordinator.leastBusy(shards, upcoming: ["east": 3, "west": 1, "north": 1])?.name == "west")
        #expect(ShardCoordinator.leastBusy(Array(shards.dropFirst(2)), upcoming: ["north": 9])?.name == "north")
        #expect(ShardCoordinator<FakeShard>.leastBusy([], upcoming: [:]) == nil)
    }
}
