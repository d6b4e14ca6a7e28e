import Foundation
import SeatSamples
import Testing

@testable import SeatMap

/// What a seat sees of the screen, against angles worked by hand: a screen 10 wide at the origin, rows
/// 2 apart below it (drawn to scale: rows two seat-widths apart), seats 1 apart from −12 to 12.
@Suite struct SeatViewTests {
    let hall: VenueLayout = {
        let rows = stride(from: 6, through: 20, by: 2).map { y in
            RowSpec(id: "\(y)", label: "\(y)", seats: (-12...12).map { x in SeatSpec(id: "\(y)-\(x)", label: "\(x)", x: Double(x), y: Double(y)) })
        }
        return try! VenueLayout(
            validating: VenueSpec(
                id: "scale", name: "Scale", stage: Stage(label: "SCREEN", center: FloorPoint(x: 0, y: 0), width: 10),
                zones: [Zone(id: "z", name: "Z", category: "standard", color: "#4A90D9")],
                rows: rows.map {
                    var r = $0; r.zone = "z"; return r
                }))
    }()

    func view(_ id: String) throws -> SeatView {
        let seat = try #require(hall.index(ofSeatID: id))
        return try #require(hall.view(from: seat))
    }

    @Test func anglesDistancesAndSidesAsWorkedByHand() throws {
        // Straight ahead, one width away: 2·atan(5/10) = 53.130°.
        let ahead = try view("10-0")
        #expect(abs(ahead.viewingAngle - 53.1301) < 0.001 && ahead.offCentreAngle == 0 && ahead.distanceInWidths == 1 && ahead.across == 0)
        #expect(ahead.verdict == .good, "past the 52° of the ideal band")
        // In line with the right edge: atan(10/10) − atan(0/10) = 45°, off the centre line atan(5/10) = 26.565°.
        let edge = try view("10-5")
        #expect(abs(edge.viewingAngle - 45) < 0.001 && abs(edge.offCentreAngle - 26.5651) < 0.001 && edge.across == 1)
        #expect(edge.verdict == .good, "a good angle, too far aside for the ideal")
        #expect(try view("10--5").across == -1, "the left edge, as the seat faces the screen")
        // 12 away: 2·atan(5/12) = 45.240°, the ideal; 20 away: 2·atan(5/20) = 28.072°, far; 6 away: 2·atan(5/6) = 79.611°, too close.
        let (best, back, front) = (try view("12-0"), try view("20-0"), try view("6-0"))
        #expect(abs(best.viewingAngle - 45.2397) < 0.001 && best.verdict == .ideal)
        #expect(abs(back.viewingAngle - 28.0725) < 0.001 && back.verdict == .far)
        #expect(abs(front.viewingAngle - 79.6111) < 0.001 && front.verdict == .tooClose)
        // 12 to the side of a seat 10 away: atan(12/10) = 50.194° off the centre line.
        let side = try view("10--12")
        #expect(abs(side.offCentreAngle - 50.1944) < 0.001 && side.verdict == .side)
        #expect(hall.views().compactMap { $0 }.count == hall.seatCount)
    }

    @Test func aSchematicPlanIsReadAtRealProportions() throws {
        // The sample cinema draws rows one seat-width apart: depth × 1.9. Row 7, seat 1 (x 8, y 7; the
        // screen 12 wide at (8.5, −2.5)): depth 9.5 × 1.9 = 18.05, 0.5 left of the centre line:
        // atan(5.5/18.05) + atan(6.5/18.05) = 16.947° + 19.804° = 36.751°.
        let cinema = SampleVenues.cinemaHall()
        let seat = try #require(cinema.index(ofSeatID: "7-1"))
        let seven = try #require(cinema.view(from: seat))
        #expect(abs(seven.viewingAngle - 36.7510) < 0.001 && abs(seven.distanceInWidths - 18.05 / 12) < 1e-9, "\(seven)")
        #expect(abs(seven.across - (-0.5 / 6)) < 1e-9 && seven.verdict == .good)
        // Drawn to scale (rows two widths apart), no stretch: the first test's hall.
        #expect(hall.depthScale(centre: FloorPoint(x: 0, y: 0), normal: (0, 1)) == 1)
        let verdicts = cinema.views().compactMap { $0?.verdict }
        #expect(verdicts.contains(.ideal) && verdicts.contains(.tooClose) && verdicts.count == cinema.seatCount)
    }

    @Test func theRoundAndNoStage() throws {
        // A stage in the middle: each seat faces it square on, so nobody is off-centre.
        let ring = try VenueLayout(
            validating: VenueSpec(
                id: "ring", name: "Ring", stage: Stage(label: "STAGE", center: FloorPoint(x: 0, y: 0), width: 4),
                zones: [Zone(id: "z", name: "Z", category: "standard", color: "#4A90D9")],
                rows: [0, 1, 2, 3].map { q in
                    RowSpec(
                        id: "\(q)", label: "\(q)", zone: "z",
                        seats: (0..<3).map { k in
                            let a = Double(q) * .pi / 2 + Double(k - 1) * 0.1
                            return SeatSpec(id: "\(q)-\(k)", label: "\(k)", x: 20 * cos(a), y: 20 * sin(a))
                        })
                }))
        for v in ring.views() { #expect(v?.offCentreAngle == 0) }
        let noStage = try VenueLayout(
            validating: VenueSpec(
                id: "flat", name: "Flat", zones: [Zone(id: "z", name: "Z", category: "standard", color: "#4A90D9")],
                rows: [RowSpec(id: "1", label: "1", zone: "z", seats: [SeatSpec(id: "1-1", label: "1", x: 0, y: 0)])]))
        #expect(noStage.view(from: 0) == nil)
    }

    @Test func theVerdictsBoundsAndWords() {
        #expect(SeatView.verdict(viewingAngle: 40, offCentre: 20) == .ideal)
        #expect(SeatView.verdict(viewingAngle: 52, offCentre: 0) == .ideal)
        #expect(SeatView.verdict(viewingAngle: 39.9, offCentre: 0) == .good)
        #expect(SeatView.verdict(viewingAngle: 45, offCentre: 20.1) == .good)
        #expect(SeatView.verdict(viewingAngle: 62.1, offCentre: 0) == .tooClose)
        #expect(SeatView.verdict(viewingAngle: 29.9, offCentre: 0) == .far)
        #expect(SeatView.verdict(viewingAngle: 45, offCentre: 35.1) == .side)
        for v in SeatView.Verdict.allCases {
            let view = SeatView(viewingAngle: 45, distanceInWidths: 1, offCentreAngle: 0, across: 0, verdict: v)
            #expect(!view.words(.chinese).isEmpty && view.words(.chinese) != view.words(.english))
        }
    }
}
