import Foundation
import SeatMap
import SeatWire

/// Standing places by count and tables by the show's rule (#53): what the web page's steppers and
/// table taps do, for a UIKit or SwiftUI picker. An area's places are asked for by number (the server
/// picks which); a tap at a table takes what the engine's `SelectionPolicy.tapChoice` says.
extension SeatSession {
    /// How many places of `areaID` this buyer holds now.
    /// - Complexity: O(seats held).
    public func places(in areaID: String) -> Int {
        let prefix = areaID + ":"
        return (state.hold?.seats ?? []).filter { $0.hasPrefix(prefix) && state.layout.area(id: areaID) != nil }.count
    }

    /// Holds exactly `count` places of the area (0: none), beside the seats held, all or nothing: an
    /// area without so many free says so (`area-full`) and the hold stays as it was.
    public func setPlaces(_ areaID: String, count: Int) {
        let key = UUID().uuidString
        enqueue { session in await session.sendPlaces(areaID, count: count, idempotencyKey: key) }
    }

    /// A tap on a seat: at a table sold whole (or with a minimum, when the buyer has none of it yet) the
    /// seats the show's rule takes together; else the seat. Taking what is all the buyer's lets it go.
    public func tap(_ seatID: String) {
        let layout = state.layout
        guard let i = layout.index(ofSeatID: seatID) else { return }
        let selection = state.selection, server = state.server
        let mine = layout.table(of: i).map { Set($0.seats).intersection(selection) } ?? []
        let picks = policy.tapChoice(at: i, in: layout, isFree: { server[$0] == .available && !selection.contains($0) }, mine: mine)
        let ids = picks.map(layout.seatID)
        if picks.allSatisfy(selection.contains) {
            deselect(ids)
        } else {
            select(picks.filter { !selection.contains($0) }.map(layout.seatID))
        }
    }

    func sendPlaces(_ areaID: String, count: Int, idempotencyKey: String) async {
        guard state.layout.area(id: areaID) != nil, count >= 0 else {
            say(SessionMessage(kind: .failed, seats: [], chinese: "没有这个区域：\(areaID)", english: "No area \(areaID) in this venue."))
            return
        }
        let api = self.api, show = showID, asked = [AreaCount(area: areaID, count: count)]
        do throws(APIError) {
            var updated: HoldResource? = nil
            if let hold = state.hold {
                do throws(APIError) {
                    updated = try await retrying { () async throws(APIError) -> HoldResource in
                        try await api.modifyHold(token: hold.token, ModifyHoldRequest(areas: asked))
                    }
                } catch  where error.slug == "hold-expired" || error.slug == "hold-released" {
                    state.hold = nil
                }
            }
            if updated == nil && count > 0 {
                updated = try await retrying { () async throws(APIError) -> HoldResource in
                    try await api.createHold(show: show, HoldRequest(seats: [], areas: asked), idempotencyKey: idempotencyKey)
                }
            }
            if let updated {
                state.hold = updated.state == .active ? updated : nil
                if let hold = state.hold { scheduleExpiry(hold) }
            }
        } catch {
            fail(error, seats: [])
        }
        await refreshNow()
    }
}
