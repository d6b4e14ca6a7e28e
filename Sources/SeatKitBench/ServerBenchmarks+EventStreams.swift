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
        var streams: [HTTPConnection] = []
        for _ in 0..<subscribers {
            let s = try HTTPConnection(port: app.port)
            // The poll loop below reads the whole response itself: head, then chunked body.
            try s.sendRaw(Array("GET /v1/shows/bench/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8))
            streams.append(s)
        }
        let baseVersion = UInt64(try app.inventory.encodedAvailability(show: "bench").0)
        let sent = Locked([UInt64: UInt64]())  // version → send time
        let writer = Thread {
            guard let c = try? HTTPConnection(port: app.port) else { return }
            for n in 0..<holds {
                let row = layout.rows[(n * 11) % layout.rows.count]
                let seat = layout.seatID(row.seats.lowerBound + (n / layout.rows.count) % row.seats.count)
                let t0 = DispatchTime.now().uptimeNanoseconds
                if let r = try? c.request("POST", "/v1/shows/bench/holds", json: "{\"seats\":[\"\(seat)\"]}"), r.status == 201,
                    let v = (try? JSONParser.parse(r.body))?.objectValue?["version"]?.intValue
                {
                    sent.withLock { $0[UInt64(v)] = t0 }
                }
                usleep(2000)
            }
        }
        writer.start()
        // One reader polls every stream.
        // Receipt times are matched to send times at the end: an event can arrive before its request's
        // response (events are published on commit, before the waiting request is answered).
        var received: [(UInt64, UInt64)] = []
        var pending = Set(0..<subscribers)
        var seen = [Int](repeating: 0, count: subscribers)
        var pfds = streams.map { pollfd(fd: $0.socketDescriptor, events: Int16(POLLIN), revents: 0) }
        let deadline = DispatchTime.now().uptimeNanoseconds + 8_000_000_000
        var buffers = [[UInt8]](repeating: [], count: subscribers)
        var decoders = [ChunkedDecoder](repeating: ChunkedDecoder(), count: subscribers)
        var heads = [[UInt8]](repeating: [], count: subscribers)
        var inBody = [Bool](repeating: false, count: subscribers)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !pending.isEmpty && DispatchTime.now().uptimeNanoseconds < deadline {
            guard poll(&pfds, nfds_t(pfds.count), 100) > 0 else { continue }
            for k in pfds.indices where pfds[k].revents & Int16(POLLIN) != 0 {
                let n = chunk.withUnsafeMutableBytes { recv(pfds[k].fd, $0.baseAddress, 65536, 0) }
                let now = DispatchTime.now().uptimeNanoseconds
                guard n > 0 else { pending.remove(k); continue }
                var bytes = chunk[0..<n]
                if !inBody[k] {
                    heads[k].append(contentsOf: bytes)
                    guard
                        let end = heads[k].indices.dropLast(3).first(where: {
                            heads[k][$0] == 13 && heads[k][$0 + 1] == 10 && heads[k][$0 + 2] == 13 && heads[k][$0 + 3] == 10
                        })
                    else { continue }
                    inBody[k] = true
                    bytes = ArraySlice(heads[k][(end + 4)...])
                    heads[k] = []
                }
                buffers[k].append(contentsOf: decoders[k].feed(bytes))
                // Each "id: N" line is one delivered version.
                while let nl = buffers[k].firstIndex(of: 10) {
                    let line = buffers[k][0..<nl]
                    buffers[k].removeFirst(nl + 1)
                    if line.starts(with: Array("id: ".utf8)), let v = UInt64(String(decoding: line.dropFirst(4), as: UTF8.self)) {
                        received.append((v, now))
                        seen[k] += 1
                        if v >= baseVersion + UInt64(holds) { pending.remove(k) }
                    }
                }
            }
        }
        writer.cancel()
        Thread.sleep(forTimeInterval: 0.2)
        let sentTimes = sent.current
        let sorted = received.compactMap { v, t in sentTimes[v].flatMap { t0 in t >= t0 ? Double(t - t0) / 1e9 : nil } }.sorted()
        func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        let committed = sent.current.count
        FileHandle.standardError.write(Data("  SSE: \(committed) of \(holds) holds committed, \(sorted.count) deliveries to \(subscribers) subscribers\n".utf8))
        return LoadResult(perSecond: Double(committed), p50: pct(0.5), p99: pct(0.99), count: sorted.count)
    }
}
