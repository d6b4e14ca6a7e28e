import Foundation

/// Keeps results alive so the optimiser cannot delete the work being measured.
nonisolated(unsafe) var sink: UInt64 = 0
@inline(never) func consume<T>(_ value: T) { withUnsafeBytes(of: value) { sink &+= UInt64($0.first ?? 0) } }

/// The median time of one call, from several batches each long enough to time reliably.
func measure(minimumBatch: Double = 0.05, batches: Int = 5, _ body: () -> Void) -> Double {
    body()  // warm up
    var perCall: [Double] = []
    var iterations = 1
    while perCall.count < batches {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if seconds < minimumBatch && perCall.isEmpty {
            iterations = max(iterations * 2, Int(Double(iterations) * minimumBatch / max(seconds, 1e-9)))
            continue
        }
        perCall.append(seconds / Double(iterations))
    }
    return perCall.sorted()[perCall.count / 2]
}

func formatTime(_ seconds: Double) -> String {
    if seconds < 1e-6 { return String(format: "%.0f ns", seconds * 1e9) }
    if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
    if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
}

struct Row {
    var name: String
    var ours: String
    var baseline: String
    var ratio: String
    var goal: String
}

final class Report {
    var rows: [Row] = []
    var notes: [String] = []

    func compare(_ name: String, ours: Double, baseline: Double, goal: Double?) {
        let ratio = baseline / ours
        let verdict = goal.map { ratio >= $0 ? "≥ \(Int($0))× ✓" : "≥ \(Int($0))× ✗" } ?? "report"
        rows.append(
            Row(
                name: name, ours: formatTime(ours), baseline: formatTime(baseline),
                ratio: String(format: "%.1f×", ratio), goal: verdict))
        FileHandle.standardError.write(Data("  \(name): \(formatTime(ours)) vs \(formatTime(baseline))\n".utf8))
    }

    /// A row whose baseline is a measured figure too (not a time), with the ratio already worked out.
    func row(_ name: String, ours: String, baseline: String, ratio: String, goal: String) {
        rows.append(Row(name: name, ours: ours, baseline: baseline, ratio: ratio, goal: goal))
    }

    func figure(_ name: String, value: String, goal: String) {
        rows.append(Row(name: name, ours: value, baseline: "", ratio: "", goal: goal))
    }

    func print(sections: [(String, Range<Int>)]) {
        for (title, range) in sections {
            Swift.print("### \(title)\n")
            Swift.print("| benchmark | ours | baseline | ours vs baseline | goal |")
            Swift.print("|---|---:|---:|---:|---|")
            for r in rows[range] { Swift.print("| \(r.name) | \(r.ours) | \(r.baseline) | \(r.ratio) | \(r.goal) |") }
            Swift.print("")
        }
        if !notes.isEmpty {
            Swift.print("")
            for n in notes { Swift.print("- " + n) }
        }
    }
}
