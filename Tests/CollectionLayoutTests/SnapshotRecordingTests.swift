import Foundation
import SeatKitTestSupport
import Testing

@Suite struct SnapshotRecordingTests {
    /// Recording writes the file and fails the test, so a run with SEATKIT_RECORD=1 never passes.
    @Test func recordingASnapshotFailsTheRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-snap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        withKnownIssue { assertSnapshot("recorded\n", named: "x.txt", in: dir, recording: true) }
        #expect(try String(contentsOf: dir.appendingPathComponent("x.txt"), encoding: .utf8) == "recorded\n")
        assertSnapshot("recorded\n", named: "x.txt", in: dir, recording: false)
    }
}
