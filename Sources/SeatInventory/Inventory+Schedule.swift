import SeatDomain
import SeatJSON

/// A hall's timetable: a show may not start before the hall's previous show has ended and the hall
/// been turned round, nor run into the next one. Checked when a show is created or its start or running
/// time changes; a check under the inventory's lock, not a store constraint (two managers creating
/// clashing shows on two instances in the same instant both pass; the board marks the overlap).
extension Inventory {
    /// Minutes a hall needs between one show's end and the next one's start (cleaning, the next audience
    /// in): 15, the usual turnaround in Chinese multiplexes' schedules (10–20 minutes).
    public static let turnaroundMinutes = 15

    /// The running time a show's details give (`duration`, whole minutes), if any.
    static func runningMinutes(detailsJSON: String) -> Int? {
        (try? JSONParser.parse(Array(detailsJSON.utf8)))?.objectValue?["duration"]?.intValue
    }

    /// A refusal naming the hall's show this one would clash with, or nil. Shows without a running time
    /// on either side, and cancelled shows, clash with nothing (where such a show ends is not known).
    /// - Complexity: O(shows), under the lock.
    func scheduleClash(show id: String, venue: String, startsAt: String, detailsJSON: String, in m: Memory) -> Refusal? {
        guard let start = Timestamp.milliseconds(startsAt), let minutes = Self.runningMinutes(detailsJSON: detailsJSON) else { return nil }
        let gap = Int64(Self.turnaroundMinutes) * 60_000, end = start + Int64(minutes) * 60_000
        let clashing = m.shows.values.filter { other in
            guard other.record.id != id, other.record.venueID == venue, other.record.cancelledAt == nil,
                let otherStart = other.startsAtMilliseconds, let otherMinutes = Self.runningMinutes(detailsJSON: other.record.detailsJSON)
            else { return false }
            return start < otherStart + Int64(otherMinutes) * 60_000 + gap && otherStart < end + gap
        }
        guard let other = clashing.min(by: { ($0.record.startsAt, $0.record.id) < ($1.record.startsAt, $1.record.id) }) else { return nil }
        let otherMinutes = Self.runningMinutes(detailsJSON: other.record.detailsJSON) ?? 0
        return Refusal(
            .scheduleClash,
            detail: "hall \(venue) has show \(other.record.id) from \(other.record.startsAt) for \(otherMinutes) minutes; "
                + "a show of \(minutes) minutes at \(startsAt) would overlap it with the \(Self.turnaroundMinutes) minutes the hall needs between shows",
            details: [
                .errors([
                    (
                        "startsAt",
                        "overlaps show \(other.record.id) (\(other.record.startsAt), \(otherMinutes) min) and its \(Self.turnaroundMinutes)-minute turnaround"
                    )
                ])
            ])
    }
}
