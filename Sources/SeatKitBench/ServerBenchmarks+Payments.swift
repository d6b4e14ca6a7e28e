import Foundation
import Glibc
import LoopbackHTTP
import SeatHTTP
import SeatJSON
import SeatPayments
import SeatServer
import SeatServerTestSupport
import SharedState

/// Money online (#52): paid orders a second and a notification's time to sold, on SQLite and on
/// PostgreSQL, beside the free confirm of the same run; and the hold path beside 100 webhook endpoints
/// of which 10 are dead, beside none. The providers are the payment sandbox (Tests/Payments/sandbox.py:
/// WeChat Pay's and Alipay's signatures made by their own SDKs); the notifications are made before the
/// clock starts, so the figure is SeatKit's: the signature checked, the resource opened, the payment and
/// the sale recorded in one durable transaction, the answer sent after the commit.
extension ServerBenchmarks {
    static func paymentRates(dir: URL, postgres: String?, report: Report) throws {
        try holdsBesideWebhooks(dir: dir, report: report)
        let sandbox = try PaymentSandbox()
        let sqlite = { (name: String) in "sqlite:" + dir.appendingPathComponent(name + ".db").path }
        try paidOrders(store: sqlite("paid"), free: sqlite("free"), label: "SQLite", sandbox: sandbox, report: report)
        if let postgres {
            try paidOrders(store: schemaURL(postgres, "paid"), free: schemaURL(postgres, "free"), label: "PostgreSQL", sandbox: sandbox, report: report)
        }
    }

    /// `count` one-seat holds checked out with WeChat Pay and paid at the sandbox, their signed
    /// notifications then sent by 16 connections: notifications answered (= orders sold) a second and
    /// each one's time to its answer, beside the same number of free confirms on a server without payments.
    static func paidOrders(store: String, free freeStore: String, label: String, sandbox: PaymentSandbox, report: Report, count: Int = 480) throws {
        var options = benchOptions(SeatServerApp.Options(adminKey: "bench-admin-key-0123456789"))
        options.store = store
        options.payments = try PaymentSettings(file: sandbox.settings(notifyPort: 9), path: "bench-payments.txt")
        let app = try server(SeatServerApp(options: options), seed: true, venue: nil)
        defer { app.stop() }
        let layout = app.inventory.venueEntryLayout("arena-20000")!
        // Checkouts and payments before the clock: 8 threads, each its share.
        let notifications = Locked([(headers: [(String, String)], body: [UInt8])]())
        let group = DispatchGroup()
        for worker in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let c = try? HTTPConnection(port: app.port) else { return }
                for n in stride(from: worker, to: count, by: 8) {
                    let seat = layout.seatID(layout.rows[100].seats.lowerBound + n)
                    guard let token = try? hold(c, seat),
                        let made = try? c.request("POST", "/v1/holds/\(token)/checkout", json: #"{"provider":"wechatpay"}"#),
                        let id = (try? JSONParser.parse(made.body))?.objectValue?["payment"]?.objectValue?["id"]?.stringValue,
                        (try? sandbox.pay("wechatpay", order: String(id.dropFirst(4)), notify: false))?.paid == true,
                        let signed = try? sandbox.notification("wechatpay", order: String(id.dropFirst(4)))
                    else { continue }
                    notifications.withLock { $0.append(signed) }
                }
            }
        }
        group.wait()
        let ready = notifications.current
        let paid = drain(port: app.port, connections: 16, count: ready.count) { c, k in
            let t0 = DispatchTime.now().uptimeNanoseconds
            let answer = try c.request("POST", "/v1/payments/wechatpay/notify", headers: ready[k].headers, body: ready[k].body)
            return answer.status == 204 ? Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9 : nil
        }
        // The baseline: as many free confirms (hold, then confirm) on a server of the same store without payments.
        let free = try server(store: freeStore, seed: true)
        defer { free.stop() }
        // Its holds made first too: the figure is the confirm's, as the paid one is the notification's.
        let tokens = Locked([String]())
        _ = drain(port: free.port, connections: 8, count: ready.count) { c, n in
            let seat = layout.seatID(layout.rows[100].seats.lowerBound + n)
            if let token = try hold(c, seat) { tokens.withLock { $0.append(token) } }
            return nil
        }
        let held = tokens.current
        let plain = drain(port: free.port, connections: 16, count: held.count) { c, k in
            let t0 = DispatchTime.now().uptimeNanoseconds
            let done = try c.request("POST", "/v1/holds/\(held[k])/confirm", json: #"{"orderRef":"FREE-\#(k)"}"#)
            return done.status == 200 ? Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9 : nil
        }
        report.row(
            "\(label): paid orders, WeChat Pay's signed notifications of \(ready.count) paid checkouts, 16 connections (each answered once its sale is durable) vs free confirms of as many holds",
            ours: String(
                format: "%.0f paid orders/s, notification → sold p50 %.1f ms, p99 %.1f ms (%d sold)", paid.perSecond, paid.p50 * 1000, paid.p99 * 1000,
                paid.count),
            baseline: String(format: "%.0f confirms/s, p99 %.1f ms", plain.perSecond, plain.p99 * 1000),
            ratio: String(format: "%.2f×", paid.perSecond / max(plain.perSecond, 1)),
            goal: paid.count == ready.count && paid.p99 <= 0.1 ? "all sold, p99 ≤ 100 ms ✓" : "all sold, p99 ≤ 100 ms ✗")
    }

    /// Hold + release (wrk, as the first server row) while buyers confirm about 5 orders a second
    /// beside it, with 100 webhook endpoints taking order.paid — 90 answering at once, 5 refusing
    /// connections, 5 black holes that never answer (the sender waits its 5 s on each) — against the
    /// same load with no endpoint, just before and just after (averaged, as `bracketed` does).
    static func holdsBesideWebhooks(dir: URL, report: Report) throws {
        guard Wrk.available else { return }
        let app = try server(dir.appendingPathComponent("webhooks.db").path, groupCommit: true)
        defer { app.stop() }
        // The endpoints: 90 on a sink in this process (libmicrohttpd, one thread, 204 at once: the receiver's
        // cost kept small, as it is elsewhere in a deployment), 5 on a closed port, 5 on a black hole.
        let taken = Locked(0)
        let sink = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 1)) { _ in
            taken.withLock { $0 += 1 }
            return .empty(204)
        }
        try sink.start()
        defer { sink.stop(drainSeconds: 0) }
        let hole = try BlackHole()
        defer { hole.close() }
        let closedPort = try LocalPythonServer.freePort()
        let layout = app.inventory.venueEntryLayout("arena-20000")!
        let admin = [("X-Admin-Key", "bench-admin-key-0123456789")]
        // Confirms on rows of their own (the wrk load holds and releases on the first 20): one every 200 ms
        // (5 orders a second, 18,000 an hour: a chain's busiest; 450 deliveries a second to the 90).
        let sold = Locked(0)
        let confirming = { (stop: Locked<Bool>) -> [Thread] in
            [
                Thread {
                    guard let c = try? HTTPConnection(port: app.port) else { return }
                    while !stop.current {
                        let n = sold.withLock { n -> Int in
                            n += 1
                            return n
                        }
                        if let token = try? hold(c, layout.seatID(layout.rows[200].seats.lowerBound + n)) {
                            _ = try? c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"HOOKS-\#(n)"}"#)
                        }
                        Thread.sleep(forTimeInterval: 0.2)
                    }
                }
            ]
        }
        // This machine's figure moves by a quarter from minute to minute: three turns of without and with
        // (and a last without), each side's median, so one bad minute does not decide the row.
        let c = try HTTPConnection(port: app.port)
        var plain: [Wrk.Result] = [], beside: [Wrk.Result] = []
        for turn in 0..<4 {
            guard let alone = holdsBeside(app, rows: 20, confirming) else { return }
            plain.append(alone)
            guard turn < 3 else { break }
            var ids: [String] = []
            for k in 0..<100 {
                let port = k < 90 ? sink.port : k < 95 ? closedPort : hole.port
                let made = try c.request(
                    "POST", "/v1/webhooks", json: #"{"url":"http://127.0.0.1:\#(port)/hooks/\#(k)","events":["order.paid"]}"#, headers: admin)
                if let id = (try? JSONParser.parse(made.body))?.objectValue?["id"]?.stringValue { ids.append(id) }
            }
            guard let with = holdsBeside(app, rows: 20, confirming) else { return }
            beside.append(with)
            for id in ids { _ = try c.request("DELETE", "/v1/webhooks/\(id)", headers: admin) }
        }
        func median(_ runs: [Wrk.Result]) -> Wrk.Result {
            runs.sorted { Double($0.holds) / $0.seconds < Double($1.holds) / $1.seconds }[runs.count / 2]
        }
        let with = median(beside), without = median(plain)
        let ratio = Double(with.holds) / with.seconds / (Double(without.holds) / without.seconds)
        besideRow(
            report,
            "hold + release as above, 5 confirms/s beside it, with 100 webhook endpoints on order.paid (90 answering, 5 refusing, 5 never answering; \(taken.current) deliveries taken) vs no endpoint, 3 turns each and a last without, medians",
            with, without, goal: ratio >= 0.9 ? "≥ 0.9× ✓" : "≥ 0.9× ✗")
    }

    /// A loopback port that takes connections (the kernel's backlog) and never answers: a dead endpoint
    /// a sender waits on until its timeout.
    struct BlackHole {
        let fd: Int32
        let port: UInt16
        init() throws {
            (fd, port) = try LocalPythonServer.boundSocket()
            guard listen(fd, 1024) == 0 else {
                _ = Glibc.close(fd)
                throw Exhausted()
            }
        }
        func close() { _ = Glibc.close(fd) }
    }

    struct Exhausted: Error {}

    /// A one-seat hold's token (nil: refused).
    static func hold(_ c: HTTPConnection, _ seat: String) throws -> String? {
        let r = try c.request("POST", "/v1/shows/bench/holds", json: #"{"seats":["\#(seat)"]}"#)
        guard r.status == 201 else { return nil }
        return (try? JSONParser.parse(r.body))?.objectValue?["token"]?.stringValue
    }

    /// Items `0..<count` done by `connections` threads (each its own connection, taking the next item),
    /// until none is left: their rate over the whole and the latencies `body` returns (nil: not counted).
    static func drain(port: UInt16, connections: Int, count: Int, _ body: @escaping @Sendable (HTTPConnection, Int) throws -> Double?) -> LoadResult {
        let next = Locked(0), latencies = Locked([Double]())
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<connections {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let c = try? HTTPConnection(port: port) else { return }
                while true {
                    let k = next.withLock { n -> Int in
                        n += 1
                        return n - 1
                    }
                    guard k < count else { return }
                    if let l = try? body(c, k) { latencies.withLock { $0.append(l) } }
                }
            }
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let sorted = latencies.current.sorted()
        func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return LoadResult(perSecond: Double(sorted.count) / elapsed, p50: pct(0.5), p99: pct(0.99), count: sorted.count)
    }
}
