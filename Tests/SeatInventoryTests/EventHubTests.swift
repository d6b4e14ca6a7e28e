import Foundation
@testable import SeatInventory
import SeatMap
import SharedState
import Testing

/// A subscriber that keeps what it is sent and reads it back as SSE events.
final class RecordingSubscriber: EventSubscriber, @unchecked Sendable {
    private let text = Locked("")
    private let closed = Locked(false)
    func send(_ t: String) -> Bool {
        if closed.current { return false }
        text.withLock { $0 += t }
        return true
    }
    func close() { closed.withLock { $0 = true } }
    func whenFinished(_ body: @escaping @Sendable () -> Void) {}

    /// (event, id, data) of each event received, comments and `retry:` left out.
    var events: [(event: String, id: String?, data: String)] {
        text.current.components(separatedBy: "\n\n").compactMap { block in
            var event = "message", id: String?, data: String?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            return data.map { (event, id, $0) }
        }
    }
}

@Suite struct EventHubTests {
    static let seats = 400

    /// Version `v` changes seat `v % seats` (held on odd versions, freed on even ones) and seat 0 each time.
    static func delta(_ v: UInt64) -> AvailabilityDelta {
        let status: SeatStatus = v % 2 == 1 ? .held : .available
        return AvailabilityDelta(
            fromVersion: v - 1, toVersion: v,
            changes: [SeatChange(seat: 0, status: v % 3 == 0 ? .sold : .held), SeatChange(seat: SeatIndex(1 + v % UInt64(seats - 1)), status: status)])
    }

    static func publish(_ hub: EventHub, _ versions: ClosedRange<UInt64>, truth: inout SeatAvailability) throws {
        for v in versions {
            let d = delta(v)
            try truth.apply(d)
            hub.publish(show: "s", version: v, delta: d.encoded(), changes: d.changes)
        }
    }

    static func waitFor(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(1000) }
    }

    /// Replays a subscriber's stream on the state it subscribed at; each `seats` event must continue
    /// the previous one.
    static func replay(_ s: RecordingSubscriber, from start: SeatAvailability) throws -> (SeatAvailability, seatsEvents: Int) {
        var state = start, count = 0
        for e in s.events {
            switch e.event {
            case "seats":
                let d = try AvailabilityDelta(encoded: e.data)
                #expect(d.fromVersion == state.version, "a gap or a repeat: at \(state.version), a delta from \(d.fromVersion)")
                #expect(e.id == String(d.toVersion))
                try state.apply(d)
                count += 1
            case "reset", "snapshot": state = try SeatAvailability(encoded: e.data)
            default: break
            }
        }
        return (state, count)
    }

    /// 5,000 viewers: the hub pauses ~100 ms between their rounds, so 200 versions published at once
    /// reach them as a few merged deltas, each continuing the last, and leave them where the show is.
    @Test func manyVersionsReachManyViewersAsFewMergedDeltas() throws {
        let hub = EventHub()
        defer { hub.stop() }
        var truth = SeatAvailability(seatCount: Self.seats)
        let start = truth
        let viewers = (0..<5_000).map { _ in RecordingSubscriber() }
        for v in viewers { hub.subscribe(v, show: "s", current: 0, lastEventID: 0) { _ in "" } }
        try Self.publish(hub, 1...200, truth: &truth)
        Self.waitFor { [0, 2_500, 4_999].allSatisfy { (try? Self.replay(viewers[$0], from: start).0.version) == 200 } }
        for v in [viewers[0], viewers[2_500], viewers[4_999]] {
            let (state, count) = try Self.replay(v, from: start)
            #expect(state.version == 200 && state.statuses == truth.statuses)
            #expect(count >= 1 && count <= 20, "\(count) seats events for 200 versions")
        }
        #expect(hub.rounds < 20)
    }

    /// A few viewers are sent each version as it was published, when versions come one at a time.
    @Test func aVersionAtATimeIsSentAsItWasPublished() throws {
        let hub = EventHub()
        defer { hub.stop() }
        var truth = SeatAvailability(seatCount: Self.seats)
        let viewer = RecordingSubscriber()
        hub.subscribe(viewer, show: "s", current: 0, lastEventID: 0) { _ in "" }
        for v in UInt64(1)...5 {
            try Self.publish(hub, v...v, truth: &truth)
            Self.waitFor { viewer.events.count == Int(v) }
        }
        #expect(viewer.events.map { $0.id ?? "" } == ["1", "2", "3", "4", "5"])
        #expect(viewer.events.map(\.data) == (UInt64(1)...5).map { Self.delta($0).encoded() })
    }

    /// Viewers that join between rounds (after a replay from the ring) and a reset (the whole state)
    /// in the middle: every viewer ends where the show is, with no gap and no repeat; a show change
    /// comes after the seats of its version.
    @Test func joinersBetweenRoundsAndAResetLoseNothing() throws {
        let hub = EventHub()
        defer { hub.stop() }
        var truth = SeatAvailability(seatCount: Self.seats)
        var viewers: [(RecordingSubscriber, SeatAvailability)] = []
        for k in 0..<3_000 {
            let v = RecordingSubscriber()
            hub.subscribe(v, show: "s", current: truth.version, lastEventID: truth.version) { _ in "" }
            viewers.append((v, truth))
            if k % 300 == 0 { try Self.publish(hub, (truth.version + 1)...(truth.version + 25), truth: &truth) }
            if k == 1_500 {
                // The log was pruned past what memory holds.
                // The whole state at the next version, with a change no event told.
                try truth.apply(AvailabilityDelta(fromVersion: truth.version, toVersion: truth.version + 1, changes: [SeatChange(seat: 5, status: .blocked)]))
                hub.publish(reset: "s", version: truth.version, encoded: truth.encoded())
            }
        }
        hub.publish(show: "s", changedAt: truth.version, json: #"{"id":"s","prices":"new"}"#)
        Self.waitFor { viewers.allSatisfy { $0.0.events.last?.event == "show" } }
        let behind = viewers.filter { $0.0.events.last?.event != "show" }.count
        #expect(behind == 0, "\(behind) viewers were not sent the show's change")
        for (v, start) in viewers where behind == 0 {
            let (state, _) = try Self.replay(v, from: start)
            #expect(state.version == truth.version && state.statuses == truth.statuses)
            #expect(v.events.last?.data == #"{"id":"s","prices":"new"}"#)
            #expect(v.events.filter { $0.event == "show" }.count == 1)
        }
    }
}
