import Foundation
import LoopbackHTTP
import SeatDomain
import SeatJSON
import SeatMap
import SeatSamples
import SeatSecrets
import SeatServer
import SeatServerTestSupport
import SeatStorage
import SharedState
import Testing

/// `make test-failover` (#29 item 4): two instances on two shards under buyers and clerks at load;
/// `east` is a highly available PostgreSQL (Patroni, etcd, a synchronous standby, HAProxy:
/// scripts/ha-cluster.sh), `west` a plain one. (a) east's primary is killed with kill -9 and Patroni
/// promotes the standby; (b) west's database is stopped for 20 s. Every acknowledged confirmation,
/// counter sale and refund must be in the stores afterwards, no seat sold twice, the reports must add
/// up, and each shard's writes must come back by themselves within 30 s. Enabled by
/// SEATKIT_FAILOVER=1 (the make target sets it): it needs Patroni, etcd and HAProxy, and fails without.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["SEATKIT_FAILOVER"] == "1")) struct FailoverTests {
    static let li = ReservationTests.li
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    /// What the load saw: acknowledged writes, and each shard's answers by second.
    final class Ledger: Sendable {
        struct State {
            var confirmed: [String: (show: String, seats: [String])] = [:]
            var sold: [String: (show: String, seats: [String])] = [:]
            var refunded: [String: [String]] = [:]
            /// Per shard: every write, when, and whether the shard could take it (made, or refused for
            /// a reason of the seats: a 4xx), or not (a 503, a 5xx or no answer).
            var writes: [String: [(at: Double, ok: Bool, made: Bool, status: Int?, detail: String?)]] = [:]
        }

        let state = Locked(State())
        /// `answer`: the response's body, kept (its first 300 characters) when the shard could not take the
        /// write, so a failed expectation says why the server refused (the problem's detail).
        func write(_ shard: String, status: Int?, answer: String? = nil) {
            let at = Date().timeIntervalSince1970
            let made = status.map { (200..<300).contains($0) } ?? false
            let ok = status.map { $0 < 500 } ?? false
            let detail = ok ? nil : answer.map { String($0.prefix(300)) }
            state.withLock { $0.writes[shard, default: []].append((at, ok, made, status, detail)) }
        }
    }

    let layout = SampleVenues.arena(seats: 20000, sections: 8)

    /// One worker: buyers hold and release (and now and then confirm), clerks sell and refund, each
    /// write counted for its shard; acknowledged ones recorded.
    static func work(port: UInt16, worker: Int, show: String, shard: String, seats: [String], ledger: Ledger, stop: Locked<Bool>) {
        var rng = SplitMix64(seed: UInt64(worker + 11))
        var c = try? HTTPConnection(port: port, timeoutSeconds: 10)
        var n = 0
        while !stop.current {
            n += 1
            Thread.sleep(forTimeInterval: 0.02)
            guard let conn = c else {
                c = try? HTTPConnection(port: port, timeoutSeconds: 10)
                continue
            }
            let seat = seats[Int(rng.next() % UInt64(seats.count))]
            do {
                if n % 5 == 0 {
                    let ref = "BOX-\(worker)-\(n)"
                    let sale = try conn.request(
                        "POST", "/v1/shows/\(show)/sales", json: #"{"seats":["\#(seat)"],"orderRef":"\#(ref)","payment":"cash"}"#, headers: li)
                    ledger.write(shard, status: sale.status, answer: sale.text)
                    if sale.status == 201 {
                        ledger.state.withLock { $0.sold[ref] = (show, [seat]) }
                        if n % 15 == 0 {
                            let refund = try conn.request("POST", "/v1/orders/\(ref)/refund", json: #"{"seats":["\#(seat)"],"reason":"test"}"#, headers: li)
                            if refund.status == 200 { ledger.state.withLock { $0.refunded[ref] = [seat] } }
                        }
                    }
                } else {
                    let made = try hold(conn, [seat], show: show)
                    ledger.write(shard, status: made.status, answer: made.text)
                    guard made.status == 201, let token = made.string("token") else { continue }
                    if n % 4 == 1 {
                        let ref = "WEB-\(worker)-\(n)"
                        let done = try conn.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"\#(ref)"}"#)
                        if done.status == 200 { ledger.state.withLock { $0.confirmed[ref] = (show, [seat]) } }
                    } else {
                        _ = try conn.request("DELETE", "/v1/holds/\(token)")
                    }
                }
            } catch {
                ledger.write(shard, status: nil)
                c = nil
            }
        }
    }

    /// Seconds from `from` until the shard made writes again after it could not, and how its writes went
    /// from then on: made, and refused because the shard could not take them (`failures`: the first
    /// few, their status or "no answer" and when, for the message of a failed expectation).
    static func recovery(
        _ ledger: Ledger, shard: String, from: Double, until: Double = .infinity
    ) -> (seconds: Double?, made: Int, failed: Int, failures: String) {
        let writes = ledger.state.withLock { $0.writes[shard] ?? [] }.filter { $0.at >= from && $0.at < until }
        let firstFailure = writes.first { !$0.ok }?.at
        let back = firstFailure.flatMap { f in writes.first { $0.at > f && $0.made }?.at }
        let failures = writes.filter { !$0.ok }.prefix(5).map { w in
            "\(w.status.map(String.init) ?? "no answer") at +" + String(format: "%.1f", w.at - from) + " s" + (w.detail.map { " (\($0))" } ?? "")
        }
        return (
            firstFailure == nil ? 0 : back.map { $0 - from }, writes.filter(\.made).count, writes.filter { !$0.ok }.count, failures.joined(separator: ", ")
        )
    }

    @Test func killingAPrimaryAndStoppingAShardLosesNoAcknowledgedWrite() throws {
        let ha = try HACluster()
        let west = try PostgresCluster()
        let shards = try ShardList(entries: [.init(name: "east", url: ha.url), .init(name: "west", url: west.freshStore())])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try "li boxoffice \(OperatorDirectory.digest(ReservationTests.boxOfficeKey))\n".write(toFile: path, atomically: true, encoding: .utf8)
        let a = try TestServer(seed: false, shards: shards) { $0.operatorsFile = path }
        let b = try TestServer(seed: false, shards: shards) { $0.operatorsFile = path }
        let c = try a.connection()
        #expect(try c.request("POST", "/v1/venues", headers: Self.admin, body: layout.jsonBytes()).status == 201)
        for (show, shard) in [("e1", "east"), ("w1", "west")] {
            let made = try c.request(
                "POST", "/v1/shows",
                json:
                    #"{"id":"\#(show)","venueId":"\#(layout.id)","startsAt":"2099-12-01T20:00:00+08:00","prices":{"categories":{"lower":"380","upper":"180"}},"shard":"\#(shard)"}"#,
                headers: Self.admin)
            #expect(made.status == 201, "\(made.text)")
        }
        let bc = try b.connection()
        let deadline = Date().addingTimeInterval(10)
        while try bc.request("GET", "/v1/shows/e1").status != 200 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let seats = layout.seatIndices.map { layout.seatID($0) }
        let ledger = Ledger(), stop = Locked(false), group = DispatchGroup()
        for worker in 0..<8 {
            let (port, show, shard) = (worker % 2 == 0 ? a.port : b.port, worker % 4 < 2 ? "e1" : "w1", worker % 4 < 2 ? "east" : "west")
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                Self.work(port: port, worker: worker, show: show, shard: shard, seats: seats, ledger: ledger, stop: stop)
            }
        }
        Thread.sleep(forTimeInterval: 3)
        // (a) east's primary dies; Patroni promotes the standby.
        let killedAt = Date().timeIntervalSince1970
        let killed = try ha.killPrimary()
        Thread.sleep(forTimeInterval: 25)
        let failover = Self.recovery(ledger, shard: "east", from: killedAt)
        let westMeanwhile = Self.recovery(ledger, shard: "west", from: killedAt, until: killedAt + 25)
        let afterFailover = try ha.status()
        // (b) west's database stopped for 20 s.
        let stoppedAt = Date().timeIntervalSince1970
        try west.stop()
        Thread.sleep(forTimeInterval: 20)
        let startedAt = Date().timeIntervalSince1970
        try west.start()
        Thread.sleep(forTimeInterval: 8)
        stop.withLock { $0 = true }
        group.wait()
        let outage = Self.recovery(ledger, shard: "west", from: startedAt)
        let eastMeanwhile = Self.recovery(ledger, shard: "east", from: stoppedAt, until: startedAt)

        // Every acknowledged write is in the stores; no seat sold twice; the reports add up.
        let store = try ShardedStore(shards)
        let (confirmed, sold, refunded) = ledger.state.withLock { ($0.confirmed, $0.sold, $0.refunded) }
        var lost: [String] = []
        for (ref, order) in confirmed.merging(sold, uniquingKeysWith: { a, _ in a }) {
            let rows = try store.orders(orderRef: ref)
            let stored = Set(rows.flatMap { r in r.seats.map { layout.seatID($0) } })
            let gone = Set(refunded[ref] ?? [])
            if rows.isEmpty || !Set(order.seats).subtracting(gone).isSubset(of: stored) { lost.append(ref) }
        }
        var lostRefunds: [String] = []
        for (ref, _) in refunded {
            let rows = try store.orders(orderRef: ref)
            if try store.refunds(holdIDs: rows.map(\.record.id)).isEmpty { lostRefunds.append(ref) }
        }
        func soldInStores() throws -> (doubleSold: Int, soldSeats: Int) {
            var doubleSold = 0, soldSeats = 0
            for show in ["e1", "w1"] {
                var owner: [Int: String] = [:]
                for sale in try store.sales(show: show) {
                    for seat in sale.seats {
                        if owner[seat] != nil { doubleSold += 1 }
                        owner[seat] = sale.record.id
                    }
                }
                let claimsSold = try store.claims(show: show).filter { $0.status == .sold }.count
                if claimsSold != owner.count { doubleSold += abs(claimsSold - owner.count) }
                soldSeats += owner.count
            }
            return (doubleSold, soldSeats)
        }
        // The report once the stores are still: a write the load sent before it stopped may still be
        // committing (a refund retried past the outage once landed between the count and the report,
        // 3231 sold against 3229 reported). Counted before and after the report until both agree.
        var (doubleSold, soldSeats) = try soldInStores()
        var reportSold: Int?
        for _ in 0..<20 {
            let report = try a.connection().request("GET", "/v1/reports/sales?from=2099-12-01&to=2099-12-02", headers: Self.li)
            reportSold = report.json?["totals"]?.arrayValue?.first?.objectValue?["sold"]?.intValue
            let after = try soldInStores()
            if after.soldSeats == soldSeats && reportSold == soldSeats { break }
            (doubleSold, soldSeats) = after
            Thread.sleep(forTimeInterval: 0.5)
        }
        print(
            """
            failover report: killed east's primary (\(killed)); after: \(afterFailover)
              east writes back after \(failover.seconds.map { String(format: "%.1f", $0) } ?? "never") s (\(failover.failed) it could not take meanwhile)
              west meanwhile: \(westMeanwhile.made) writes made, \(westMeanwhile.failed) it could not take
              west stopped 20 s: writes back \(outage.seconds.map { String(format: "%.1f", $0) } ?? "at once") after its database started; east meanwhile: \(eastMeanwhile.made) made, \(eastMeanwhile.failed) it could not take
              acknowledged: \(confirmed.count) confirmations, \(sold.count) counter sales, \(refunded.count) refunds; lost: \(lost.count) sales, \(lostRefunds.count) refunds
              seats sold twice: \(doubleSold); sold seats \(soldSeats), the sales report says \(reportSold ?? -1)
            """)
        #expect(lost.isEmpty && lostRefunds.isEmpty, "lost: \(lost) \(lostRefunds)")
        #expect(doubleSold == 0)
        #expect(reportSold == soldSeats)
        #expect(confirmed.count > 20 && sold.count > 20 && refunded.count > 3, "the load must be real")
        #expect((failover.seconds ?? 99) <= 30 && afterFailover.contains("primary") && !afterFailover.hasPrefix("\(killed) primary"))
        #expect(westMeanwhile.made > 100 && westMeanwhile.failed == 0, "west kept selling while east failed over: \(westMeanwhile.failures)")
        #expect(eastMeanwhile.made > 100 && eastMeanwhile.failed == 0, "east kept selling while west was down: \(eastMeanwhile.failures)")
        #expect(outage.seconds.map { $0 <= 30 } ?? true)
    }
}
