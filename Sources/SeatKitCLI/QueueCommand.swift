import ArgumentParser
import Foundation
import LoopbackHTTP
import SeatJSON
import SeatWire

/// `seatkit queue --server URL --show ID [--opens-at TIME --admit-per-minute N …] [--off]`: a show's
/// waiting room from the command line. With settings it sets the room up (or changes it), with `--off`
/// switches it off (everyone waiting let in), with neither says how it stands.
struct QueueCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Set up, change, switch off or look at a show's waiting room on a running server.",
        discussion: "With --opens-at and --admit-per-minute: sets the room up (a manager's key). With --off: switches it off. "
            + "With neither: the room as it stands. " + OperatorTarget.keyHelp)

    @OptionGroup var operatorTarget: OperatorTarget

    @Option(help: ArgumentHelp("When the sale opens: an ISO time with its offset, or \"now\", or \"in N minutes\".", valueName: "TIME"))
    var opensAt: String?

    @Option(help: "Buyers let in a minute (1 to 100,000).")
    var admitPerMinute: Int?

    @Option(help: "Arrivals this many minutes before opening are shuffled at opening, or register for the draw (0 to 20,160).")
    var earlyMinutes = 30

    @Option(help: "Minutes an admitted buyer has to start holding (1 to 60).")
    var admissionMinutes = 10

    @Option(help: "Places one address may hold at once (1 to 1,000).")
    var maxPerAddress = 8

    @Option(help: "Places one network (an IPv4 /24, an IPv6 /64) may hold at once (default: 64, or --max-per-address if more).")
    var maxPerNetwork: Int?

    @Option(help: "Arrivals the line takes a second, from everyone (1 to 1,000,000).")
    var joinsPerSecond = 1_000

    @Option(help: "Leading zero bits of the proof of work a join must bring (0: none; 16 to 20 take a phone a second or two).")
    var proofOfWorkBits = 0

    @Option(help: ArgumentHelp("A registration and draw: when registration closes and the draw is made (an ISO time, \"in N minutes\").", valueName: "TIME"))
    var drawAt: String?

    @Option(help: "Registrants drawn at --draw-at, each given a buying slot from the opening.")
    var drawWinners: Int?

    @Option(help: ArgumentHelp("A priority lane and its percent of the admissions, NAME:SHARE (repeat for more).", valueName: "NAME:SHARE"))
    var lane: [String] = []

    @Flag(help: "Switch the room off: everyone waiting is let in at once.")
    var off = false

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let server = try operatorTarget.server()
        let path = "/v1/shows/\(operatorTarget.target.show)/queue"
        let r: HTTPConnection.Response
        if off {
            guard opensAt == nil && admitPerMinute == nil else { throw UsageError(message: "--off takes no settings") }
            r = try server.request("DELETE", path)
        } else if let opensAt, let admitPerMinute {
            if (drawAt == nil) != (drawWinners == nil) { throw UsageError(message: "give both --draw-at and --draw-winners") }
            let lanes = try lane.map { text -> QueueLaneSetting in
                let parts = text.split(separator: ":")
                guard parts.count == 2, let share = Int(parts[1]) else { throw UsageError(message: "--lane is NAME:SHARE like fanclub:70, got \"\(text)\"") }
                return QueueLaneSetting(name: String(parts[0]), share: share)
            }
            let body = QueueSettingsRequest(
                opensAt: try Self.time(opensAt), admitPerMinute: admitPerMinute, earlyMinutes: earlyMinutes, admissionMinutes: admissionMinutes,
                maxEntriesPerAddress: maxPerAddress, maxEntriesPerNetwork: maxPerNetwork ?? max(64, maxPerAddress),
                maxJoinsPerSecond: joinsPerSecond, proofOfWorkBits: proofOfWorkBits, drawAt: try drawAt.map { try Self.time($0, option: "--draw-at") },
                drawWinners: drawWinners ?? 0, lanes: lanes)
            r = try server.request("PUT", path, json: String(decoding: body.jsonBytes(), as: UTF8.self))
        } else {
            guard opensAt == nil && admitPerMinute == nil else { throw UsageError(message: "give both --opens-at and --admit-per-minute") }
            r = try server.request("GET", path)
        }
        guard r.status == 200 else { throw BoxOfficeCommand.failure(r) }
        let room: QueueResource
        do { room = try QueueResource(json: r.body) } catch { throw InputFailure(message: "the server's answer is not a waiting room: \(error)") }
        output.line(Self.describe(room))
        return ExitCode.success
    }

    /// `now`, `in N minutes`, or an ISO time (checked here, so a typo is not sent).
    static func time(_ text: String, option: String = "--opens-at", now: Date = Date()) throws -> String {
        let words = text.lowercased().split(separator: " ")
        if text.lowercased() == "now" { return Timestamp.text(Int64(now.timeIntervalSince1970 * 1000)) }
        if words.count == 3, words[0] == "in", let n = Int(words[1]), (0...100_000).contains(n), words[2].hasPrefix("minute") {
            return Timestamp.text(Int64(now.timeIntervalSince1970 * 1000) + Int64(n) * 60_000)
        }
        guard Timestamp.milliseconds(text) != nil else {
            throw UsageError(message: "\(option) is an ISO time like 2026-12-20T20:00:00+08:00, \"now\" or \"in 10 minutes\", got \"\(text)\"")
        }
        return text
    }

    static func describe(_ q: QueueResource) -> String {
        let s = q.settings
        var lines = [
            "waiting room of \(q.showID): \(q.state.rawValue), opens \(s.opensAt)",
            "  \(s.admitPerMinute) a minute, early arrivals from \(s.earlyMinutes) min before, \(s.admissionMinutes) min to start holding, "
                + "\(s.maxEntriesPerAddress) places an address, \(s.maxEntriesPerNetwork) a network, \(s.maxJoinsPerSecond) arrivals a second",
            "  waiting \(q.length), let in \(q.admitted) (\(q.admittedLastMinute) in the last minute), wait at the back \(q.waitAtBackSeconds) s",
        ]
        if s.proofOfWorkBits > 0 { lines.append("  proof of work: \(s.proofOfWorkBits) bits a join") }
        if let drawAt = s.drawAt { lines.append("  draw of \(s.drawWinners) at \(drawAt), \(q.registered ?? 0) registered") }
        for lane in q.laneCounts {
            lines.append("  lane \(lane.name) (\(lane.share) %): waiting \(lane.waiting), let in \(lane.admitted)")
        }
        if let seed = q.seed {
            lines.append("  shuffled \(q.shuffled) early arrivals at \(q.openedAt ?? "?") with seed \(seed)")
        } else {
            lines.append("  shuffle seed commitment \(q.seedCommitment)")
        }
        return lines.joined(separator: "\n")
    }
}
