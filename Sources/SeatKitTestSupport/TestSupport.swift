import Foundation
import SeatSamples
import Testing

/// A seeded generator for property-style tests: the same seed gives the same cases on every machine
/// (the samples' SplitMix64).
public typealias TestRandom = SplitMix64

/// Text snapshots in the style of swift-argument-parser: compares `text` with `<directory>/<name>`;
/// `SEATKIT_RECORD=1 swift test` writes the files anew and fails (so a run that records can never
/// pass by accident); review the diff, then run again without it.
public func assertSnapshot(
    _ text: String, named name: String, in directory: URL,
    recording: Bool = ProcessInfo.processInfo.environment["SEATKIT_RECORD"] == "1",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let url = directory.appendingPathComponent(name)
    if recording {
        try! text.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded snapshot \(name): review the diff, then run again without SEATKIT_RECORD", sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("no snapshot \(name): run SEATKIT_RECORD=1 swift test to record it", sourceLocation: sourceLocation)
        return
    }
    #expect(text == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
}
