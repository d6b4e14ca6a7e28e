import Foundation
import SharedState
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One Server-Sent Event.
package struct ServerEvent: Sendable, Hashable {
    package var id: String?
    package var event: String
    package var data: String
    package init(id: String?, event: String, data: String) { self.id = id; self.event = event; self.data = data }
}

/// Parses the `text/event-stream` format incrementally (lines may arrive split anywhere).
package struct EventStreamParser: Sendable {
    private var pending: [UInt8] = []
    private var id: String?
    private var event = "message"
    private var data: [String] = []
    /// The last `id:` seen, to resume with `Last-Event-ID`.
    package private(set) var lastEventID: String?

    package init() {}

    package mutating func feed(_ bytes: [UInt8]) -> [ServerEvent] {
        pending.append(contentsOf: bytes)
        var out: [ServerEvent] = []
        while let nl = pending.firstIndex(of: 10) {
            var line = Array(pending[..<nl])
            pending.removeSubrange(...nl)
            if line.last == 13 { line.removeLast() }
            let text = String(decoding: line, as: UTF8.self)
            if text.isEmpty {
                if !data.isEmpty {
                    out.append(ServerEvent(id: id, event: event, data: data.joined(separator: "\n")))
                    if let id { lastEventID = id }
                }
                id = nil; event = "message"; data = []
                continue
            }
            if text.hasPrefix(":") { continue }
            let (field, value) = Self.split(text)
            switch field {
            case "id": id = value
            case "event": event = value
            case "data": data.append(value)
            default: break  // `retry` and unknown fields are ignored
            }
        }
        return out
    }

    static func split(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }
}

/// A reconnecting SSE client on URLSession (delegate-based, so it streams on Linux too): on a dropped
/// connection it waits (0.5 s, doubling to 8 s) and reconnects with `Last-Event-ID`.
package final class EventSource: NSObject, URLSessionDataDelegate, Sendable {
    package let url: URL
    private struct State {
        var parser = EventStreamParser()
        var session: URLSession?
        var task: URLSessionDataTask?
        var stopped = false
        var delay = 0.5
        var resumeID: String?
    }

    /// Lock: `state` (a leaf: events are delivered and tasks cancelled after it is released).
    private let state = Locked(State())
    private let onEvent: @Sendable (ServerEvent) -> Void
    private let onState: @Sendable (Bool) -> Void

    /// `onEvent` gets every event; `onState` says when the stream is (dis)connected.
    package init(
        url: URL, lastEventID: String? = nil, onState: @escaping @Sendable (Bool) -> Void = { _ in },
        onEvent: @escaping @Sendable (ServerEvent) -> Void
    ) {
        self.url = url
        self.onEvent = onEvent
        self.onState = onState
        super.init()
        state.withLock { $0.resumeID = lastEventID }
    }

    package func start() {
        state.withLock { s in
            guard !s.stopped else { return }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 60
            let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
            var request = URLRequest(url: url)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            if let id = s.parser.lastEventID ?? s.resumeID { request.setValue(id, forHTTPHeaderField: "Last-Event-ID") }
            s.session = session
            s.task = session.dataTask(with: request)
            s.task?.resume()
        }
    }

    package func stop() {
        let (t, session) = state.withLock { s in
            s.stopped = true
            return (s.task, s.session)
        }
        t?.cancel()
        session?.invalidateAndCancel()
    }

    package var lastEventID: String? { state.withLock { $0.parser.lastEventID ?? $0.resumeID } }

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let ok = (response as? HTTPURLResponse)?.statusCode == 200
        if ok { state.withLock { $0.delay = 0.5 }; onState(true) }
        completionHandler(ok ? .allow : .cancel)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let events = state.withLock { $0.parser.feed([UInt8](data)) }
        for e in events { onEvent(e) }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        onState(false)
        let (wait, done) = state.withLock { s in
            defer { s.delay = min(s.delay * 2, 8); s.session = nil }
            return (s.delay, s.stopped)
        }
        session.finishTasksAndInvalidate()
        guard !done else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [weak self] in self?.start() }
    }
}
