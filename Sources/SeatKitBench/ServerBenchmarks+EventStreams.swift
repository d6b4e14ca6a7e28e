#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LoopbackHTTP
import SeatJSON
import SeatSamples
import SeatMap
import SeatServer
import SeatStorage
import SharedState

/// Event-stream delivery under holds: many subscribers on one show.
extension ServerBenchmarks {
    /// Opens `subscribers` event streams, makes `holds` holds one after another, and measures for each
    /// subscriber and version the time from the request being sent to the event arriving.
    static func sseDelays(app: SeatServerApp, layout: VenueLayout, subscribers: Int, holds: Int) throws -> LoadResult {
        let streams = try EventStreamReader.open(port: app.port, show: "bench", count: subscribers) { _ in nil }
        let baseVersion = UInt64(try app.inventory.encodedAvailability(show: "bench").0)
        let (sent, writer) = holdWriter(app: app, layout: layout, holds: holds)
        writer.start()
        // Receipt times are matched to send times at the end: an event can arrive before its request's
        // response (events are published on commit, before the waiting request is answered).
        // The connections own the sockets: they must outlive the reading.
        var reader = EventStreamReader(streams.map(\.socketDescriptor))
        let received = withExtendedLifetime(streams) {
            reader.read(deadline: DispatchTime.now().uptimeNanoseconds + 8_000_000_000, through: baseVersion + UInt64(holds))
        }
        writer.cancel()
        Thread.sleep(forTimeInterval: 0.2)
        let delays = Self.delays(received, sent: sent.current)
        FileHandle.standardError.write(
            Data("  SSE: \(sent.current.count) of \(holds) holds committed, \(delays.count) deliveries to \(subscribers) subscribers\n".utf8))
        return LoadResult(perSecond: Double(sent.current.count), p50: delays.p50, p99: delays.p99, count: delays.count)
    }

    /// `holds` single-seat holds on show `bench`, 2 ms apart, on a thread of their own; each committed
    /// version's send time (monotonic ns) lands in the returned box.
    static func holdWriter(
        app: SeatServerApp, layout: VenueLayout, holds: Int, from first: Int = 0, spacingMicroseconds: UInt32 = 2000
    ) -> (Locked<[UInt64: UInt64]>, Thread) {
        let sent = Locked([UInt64: UInt64]())  // version → send time
        let port = app.port
        let writer = Thread {
            guard let c = try? HTTPConnection(port: port) else { return }
            for n in first..<(first + holds) {
                let row = layout.rows[(n * 11) % layout.rows.count]
                let seat = layout.seatID(row.seats.lowerBound + (n / layout.rows.count) % row.seats.count)
                let t0 = DispatchTime.now().uptimeNanoseconds
                if let r = try? c.request("POST", "/v1/shows/bench/holds", json: "{\"seats\":[\"\(seat)\"]}"), r.status == 201,
                    let v = (try? JSONParser.parse(r.body))?.objectValue?["version"]?.intValue
                {
                    sent.withLock { $0[UInt64(v)] = t0 }
                }
                usleep(spacingMicroseconds)
            }
        }
        return (sent, writer)
    }

    /// Receipt minus send time of every delivery whose version was sent, in seconds: p50, p99, count.
    static func delays(_ received: [(version: UInt64, at: UInt64)], sent: [UInt64: UInt64]) -> (p50: Double, p99: Double, count: Int) {
        let sorted = received.compactMap { v, t in sent[v].flatMap { t0 in t >= t0 ? Double(t - t0) / 1e9 : nil } }.sorted()
        func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return (pct(0.5), pct(0.99), sorted.count)
    }

    /// 10,000 subscribers: their sockets in a process of their own (both ends of 10,000 streams in one
    /// process pass the file limit), which reads every delivery and, given the send times afterwards,
    /// answers the delays. Monotonic time is the machine's, so the two processes' clocks agree.
    static func sseDelaysInAnotherProcess(app: SeatServerApp, layout: VenueLayout, subscribers: Int, holds: Int) throws -> LoadResult? {
        // The earlier rows' streams are closed on the client's side, but the server notices a closed stream
        // only when it next writes to it (a heartbeat, every 15 s): until then they count against the
        // stream limit, and 10,000 more would be refused in part.
        let quiet = Date().addingTimeInterval(20)
        while app.inventory.subscriberCount > 0 && Date() < quiet { usleep(100_000) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: p.executableURL!.path) { p.executableURL = Bundle.main.executableURL }
        p.arguments = ["listeners", String(app.port), "bench", String(subscribers)]
        let out = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardInput = input
        try p.run()
        defer { p.terminate() }
        func line() -> String {
            var bytes = [UInt8]()
            while let byte = try? out.fileHandleForReading.read(upToCount: 1), let b = byte.first, b != 10 { bytes.append(b) }
            return String(decoding: bytes, as: UTF8.self)
        }
        let opened = line()  // "OPEN n REFUSED m"
        FileHandle.standardError.write(Data("  SSE in another process: \(opened)\n".utf8))
        let (sent, writer) = holdWriter(app: app, layout: layout, holds: holds, from: 1_000, spacingMicroseconds: 20_000)
        writer.start()
        while !writer.isFinished { usleep(50_000) }
        var text = ""
        for (v, t) in sent.current { text += "\(v) \(t)\n" }
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let words = line().split(separator: " ")  // "P50 s P99 s COUNT n EXPECTED m STREAMS k"
        guard words.count == 10, let p50 = Double(words[1]), let p99 = Double(words[3]), let count = Int(words[5]), let expected = Int(words[7]),
            let answered = Int(words[9])
        else { return nil }
        FileHandle.standardError.write(
            Data("  SSE: \(sent.current.count) of \(holds) holds committed, \(count) of \(expected) deliveries to \(opened)\n".utf8))
        return LoadResult(perSecond: Double(sent.current.count), p50: p50, p99: p99, count: count, streams: answered)
    }

    /// The child's side: opens the streams (250 from each of 127.0.2.10, .11, …: the server allows 256 an
    /// address, and the viewers' process before used 127.0.0.x, whose closed streams the server may not
    /// have noticed yet), reports, reads every delivery until the send times arrive on standard input, then
    /// prints the delays.
    static func listenersProcess(port: UInt16, show: String, count: Int) -> Never {
        raiseFileLimit()
        let streams = (try? EventStreamReader.open(port: port, show: show, count: count) { "127.0.2.\(10 + $0 / 250)" }) ?? []
        FileHandle.standardOutput.write(Data("OPEN \(streams.count) REFUSED \(count - streams.count)\n".utf8))
        var reader = EventStreamReader(streams.map(\.socketDescriptor))
        var received = withExtendedLifetime(streams) { reader.read(deadline: .max, through: .max, stopWhenReadable: 0) }
        var sent: [UInt64: UInt64] = [:]
        while let l = readLine() {
            let w = l.split(separator: " ")
            if w.count == 2, let v = UInt64(w[0]), let t = UInt64(w[1]) { sent[v] = t }
        }
        // Every delivery, however late: until each stream has the last version sent (a tail cut off at a
        // fixed wait would flatter the p99), or 30 s.
        if let last = sent.keys.max() {
            received += withExtendedLifetime(streams) { reader.read(deadline: DispatchTime.now().uptimeNanoseconds + 30_000_000_000, through: last) }
        }
        let d = delays(received, sent: sent)
        // Streams the server refused (a 429 or 503 head, then closed) are not subscribers: the expected
        // deliveries are every sent version to every stream it answered 200.
        let answered = reader.statuses.filter { $0 == 200 }.count
        let refused = reader.statuses.enumerated().filter { $0.element != 200 }.map { "\($0.element)" }
        FileHandle.standardError.write(
            Data("  listeners: \(answered) streams answered 200; others: \(Dictionary(grouping: refused, by: { $0 }).mapValues(\.count))\n".utf8))
        FileHandle.standardOutput.write(Data("P50 \(d.p50) P99 \(d.p99) COUNT \(d.count) EXPECTED \(sent.count * answered) STREAMS \(answered)\n".utf8))
        exit(0)
    }
}

/// Reads many event streams from one thread: each stream's head, then its chunked body; each delivery
/// (`id: N`) stamped with the monotonic time it was read.
struct EventStreamReader {
    let fds: [Int32]
    /// The newest version each stream has delivered.
    private(set) var latest: [UInt64]
    /// Each stream's HTTP status, once its head is read (0 before).
    private(set) var statuses: [Int]
    private var buffers: [[UInt8]], decoders: [ChunkedDecoder], heads: [[UInt8]], inBody: [Bool]
    /// Whether the stream's first id (its snapshot's) has been read.
    private var started: [Bool]

    init(_ fds: [Int32]) {
        self.fds = fds
        latest = Array(repeating: 0, count: fds.count)
        statuses = Array(repeating: 0, count: fds.count)
        buffers = Array(repeating: [], count: fds.count); decoders = Array(repeating: ChunkedDecoder(), count: fds.count)
        heads = Array(repeating: [], count: fds.count); inBody = Array(repeating: false, count: fds.count)
        started = Array(repeating: false, count: fds.count)
    }

    /// `count` streams of `show`, each asked for with its own request (the reader parses the answer
    /// itself); `source(k)` is the k-th stream's local address, nil for the default.
    static func open(port: UInt16, show: String, count: Int, source: (Int) -> String?) throws -> [HTTPConnection] {
        try (0..<count).map { k in
            let s = try source(k).map { try HTTPConnection(port: port, source: $0) } ?? HTTPConnection(port: port)
            try s.sendRaw(Array("GET /v1/shows/\(show)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8))
            // Paced: connections made faster than the server accepts them overflow its listen backlog
            // (1,024), and the kernel drops them unanswered.
            if k % 50 == 49 { usleep(20_000) }
            return s
        }
    }

    /// Every delivery until each stream has seen version `through`, the deadline passes, or
    /// `stopWhenReadable` (a descriptor: standard input) has something to read. One thread: with 10,000
    /// streams its reads (a million `recv`s for 100 events) share the machine with the server, so the
    /// delays measured include the reader's own queue.
    mutating func read(deadline: UInt64, through: UInt64, stopWhenReadable stop: Int32? = nil) -> [(version: UInt64, at: UInt64)] {
        var received: [(version: UInt64, at: UInt64)] = []
        var pending = Set(fds.indices.filter { latest[$0] < through })
        var chunk = [UInt8](repeating: 0, count: 65536)
        var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if let stop { pfds.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
        while !pending.isEmpty && DispatchTime.now().uptimeNanoseconds < deadline {
            guard poll(&pfds, nfds_t(pfds.count), 100) > 0 else { continue }
            if stop != nil && pfds[fds.count].revents != 0 { break }
            for k in fds.indices where pfds[k].revents & Int16(POLLIN) != 0 {
                if !consume(k, &chunk, through: through, into: &received) {
                    pending.remove(k)
                    pfds[k].fd = -1
                } else if latest[k] >= through {
                    pending.remove(k)
                }
            }
        }
        return received
    }

    /// Reads what stream `k` has: its head first, then chunks; an `id: N` line delivers the versions
    /// after the stream's last through N. False when the stream has ended.
    private mutating func consume(_ k: Int, _ chunk: inout [UInt8], through: UInt64, into received: inout [(version: UInt64, at: UInt64)]) -> Bool {
        let n = chunk.withUnsafeMutableBytes { recv(fds[k], $0.baseAddress, 65536, 0) }
        let now = DispatchTime.now().uptimeNanoseconds
        guard n > 0 else { return false }
        var bytes = chunk[0..<n]
        if !inBody[k] {
            heads[k].append(contentsOf: bytes)
            guard
                let end = heads[k].indices.dropLast(3).first(where: {
                    heads[k][$0] == 13 && heads[k][$0 + 1] == 10 && heads[k][$0 + 2] == 13 && heads[k][$0 + 3] == 10
                })
            else { return true }
            inBody[k] = true
            // "HTTP/1.1 200 OK": the status is the second word.
            let words = heads[k][..<end].split(separator: 32, maxSplits: 2)
            statuses[k] = words.count > 1 ? Int(String(decoding: words[1], as: UTF8.self)) ?? -1 : -1
            bytes = ArraySlice(heads[k][(end + 4)...])
            heads[k] = []
        }
        buffers[k].append(contentsOf: decoders[k].feed(bytes))
        var start = 0
        while let nl = buffers[k][start...].firstIndex(of: 10) {
            let line = buffers[k][start..<nl]
            start = nl + 1
            if line.starts(with: Array("id: ".utf8)), let v = UInt64(String(decoding: line.dropFirst(4), as: UTF8.self)) {
                // A merged delta (versions published faster than a delivery round) delivers every
                // version after the stream's last one through its id; the first id is the snapshot's.
                if !started[k] || v <= latest[k] {
                    started[k] = true
                    received.append((v, now))
                } else {
                    for version in (latest[k] + 1)...v { received.append((version, now)) }
                }
                latest[k] = max(latest[k], v)
            }
        }
        buffers[k].removeFirst(start)
        return true
    }
}
