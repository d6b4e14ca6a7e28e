import Foundation
import SeatSamples
import SeatMap

/// `swift run -c release SeatKitBench`: each figure beside its naive baseline, measured in the same run.
/// Prints a Markdown table (BENCHMARKS.md keeps it); progress goes to stderr.
let report = Report()
// `SeatKitBench viewers PORT SHOW COUNT`: the server benchmark's viewers, in a process of their own
// (10,000 streams are 10,000 sockets on each side: both ends in one process pass the file limit).
if CommandLine.arguments.count == 5 && CommandLine.arguments[1] == "viewers" {
    ServerBenchmarks.viewersProcess(port: UInt16(CommandLine.arguments[2]) ?? 0, show: CommandLine.arguments[3], count: Int(CommandLine.arguments[4]) ?? 0)
}
// `SeatKitBench listeners PORT SHOW COUNT`: the 10,000 subscribers whose delivery delay is measured.
if CommandLine.arguments.count == 5 && CommandLine.arguments[1] == "listeners" {
    ServerBenchmarks.listenersProcess(port: UInt16(CommandLine.arguments[2]) ?? 0, show: CommandLine.arguments[3], count: Int(CommandLine.arguments[4]) ?? 0)
}
// `SeatKitBench store`: the SQLite store alone, five runs of the writer's ceiling (for judging a change
// to the store's statements: the figure moves less than the HTTP benchmark's).
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "store" {
    var rates: [Double] = []
    for k in 0..<5 {
        let path = NSTemporaryDirectory() + "seatkit-store-\(ProcessInfo.processInfo.processIdentifier)-\(k).db"
        rates.append(try ServerBenchmarks.storeCeiling(path))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        print(String(format: "run %d: %.0f holds/s", k + 1, rates[k]))
    }
    print(String(format: "median: %.0f holds/s", rates.sorted()[2]))
    exit(0)
}
// `SeatKitBench postgres`: the shared store's rows alone (SEATKIT_BENCH_POSTGRES or SEATKIT_TEST_POSTGRES).
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "postgres",
    let url = ProcessInfo.processInfo.environment["SEATKIT_BENCH_POSTGRES"] ?? ProcessInfo.processInfo.environment["SEATKIT_TEST_POSTGRES"]
{
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-pg-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try ServerBenchmarks.postgresHolds(url: url, sqliteDirectory: dir, report: report)
    report.print(sections: [("SeatServer: the shared store", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench commit-line`: the database's CPU a hold against commits a hold, one shard's line and two
// shards' points on it (SEATKIT_BENCH_POSTGRES or SEATKIT_TEST_POSTGRES).
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "commit-line",
    let url = ProcessInfo.processInfo.environment["SEATKIT_BENCH_POSTGRES"] ?? ProcessInfo.processInfo.environment["SEATKIT_TEST_POSTGRES"]
{
    try ServerBenchmarks.commitLine(url: url, report: report)
    report.print(sections: [("SeatServer: shards' commits", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench shards`: two shards against one alone (SEATKIT_BENCH_POSTGRES or SEATKIT_TEST_POSTGRES).
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "shards",
    let url = ProcessInfo.processInfo.environment["SEATKIT_BENCH_POSTGRES"] ?? ProcessInfo.processInfo.environment["SEATKIT_TEST_POSTGRES"]
{
    try ServerBenchmarks.shardedHolds(url: url, report: report)
    try ServerBenchmarks.commitCosts(url: url, report: report)
    try ServerBenchmarks.followerCost(url: url, report: report)
    report.print(sections: [("SeatServer: shards", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench queue`: the waiting room's rows alone, on a fresh SQLite server.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "queue" {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-queue-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let app = try ServerBenchmarks.server(dir.appendingPathComponent("queue.db").path, groupCommit: true)
    try ServerBenchmarks.queueRates(app: app, report: report)
    try ServerBenchmarks.proofOfWorkRates(app: app, report: report)
    app.stop()
    report.print(sections: [("SeatServer: the waiting room", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench door`: the door's check-ins alone, on a fresh SQLite server.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "door" {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-door-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let app = try ServerBenchmarks.server(dir.appendingPathComponent("door.db").path, groupCommit: true)
    try ServerBenchmarks.doorRates(app: app, report: report, holdsPerSecond: nil)
    app.stop()
    report.print(sections: [("SeatServer: the door", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench streams`: hold + release beside 10,000 event streams and their delivery delay, alone.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "streams" {
    ServerBenchmarks.raiseFileLimit()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-streams-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try ServerBenchmarks.holdsBesideViewers(dir: dir, report: report)
    let app = try ServerBenchmarks.server(dir.appendingPathComponent("delivery.db").path, groupCommit: true)
    try ServerBenchmarks.wideDelivery(app: app, report: report)
    app.stop()
    report.print(sections: [("SeatServer: event streams", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench payments`: paid orders and the hold path beside webhook endpoints, alone (PostgreSQL from
// SEATKIT_BENCH_POSTGRES or SEATKIT_TEST_POSTGRES when set).
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "payments" {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-payments-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let postgres = ProcessInfo.processInfo.environment["SEATKIT_BENCH_POSTGRES"] ?? ProcessInfo.processInfo.environment["SEATKIT_TEST_POSTGRES"]
    try ServerBenchmarks.paymentRates(dir: dir, postgres: postgres, report: report)
    report.print(sections: [("SeatServer: money online", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench areas`: places held on a general-admission area beside seats held, alone.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "areas" {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-areas-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try ServerBenchmarks.areaRates(dir: dir, report: report)
    try ServerBenchmarks.stadiumReads(dir: dir, report: report)
    report.print(sections: [("SeatServer: general admission", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench realnames`: holds with their attendees beside holds without, alone.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "realnames" {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-realnames-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try ServerBenchmarks.realNameRates(dir: dir, report: report)
    report.print(sections: [("SeatServer: real-name sales", 0..<report.rows.count)])
    exit(0)
}
// `SeatKitBench waitlist`: a waitlist's offer after a refund beside the seat back on sale, alone.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "waitlist" {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-bench-waitlist-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try ServerBenchmarks.waitlistDelays(dir: dir, report: report)
    report.print(sections: [("SeatServer: waitlists", 0..<report.rows.count)])
    exit(0)
}
if CommandLine.arguments.contains("server") {
    FileHandle.standardError.write(Data("server benchmarks…\n".utf8))
    try ServerBenchmarks.run(report: report)
    report.print(sections: [("SeatServer", 0..<report.rows.count)])
    exit(0)
}
FileHandle.standardError.write(Data("building the 100k-seat arena…\n".utf8))
let arena = SampleVenues.arena(seats: 100_000)
let availability = SampleVenues.randomAvailability(for: arena, sold: 0.3, held: 0.05, seed: 42)
if CommandLine.arguments.contains("--phases") { Phases.run(arena); exit(0) }
SeatMapBenchmarks.run(layout: arena, availability: availability, report: report)
let seatMapRows = report.rows.count
FileHandle.standardError.write(Data("CollectionLayout…\n".utf8))
LayoutBenchmarks.run(report: report)
let layoutRows = report.rows.count
FileHandle.standardError.write(Data("SeatCanvas…\n".utf8))
CanvasBenchmarks.run(layout: arena, availability: availability, report: report)
let canvasRows = report.rows.count
FileHandle.standardError.write(Data("SeatTickets…\n".utf8))
TicketBenchmarks.run(report: report)
report.print(sections: [
    ("SeatMap", 0..<seatMapRows), ("CollectionLayout", seatMapRows..<layoutRows), ("SeatCanvas", layoutRows..<canvasRows),
    ("SeatTickets", canvasRows..<report.rows.count),
])
