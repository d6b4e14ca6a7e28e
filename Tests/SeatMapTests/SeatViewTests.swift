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

    /// A proscenium with seats beside and behind its stage (a rectangle 10 wide and 4 deep at the
    /// origin: its front edge, the screen's line, at y 2), worked by hand. Every seat gets a view; the
    /// screen stays square to the page however the side seats pull the seats' middle.
    @Test func seatsBesideAndBehindAStageSeeItFromTheSideAndTheBack() throws {
        var rows = stride(from: 6, through: 20, by: 2).map { y in
            RowSpec(id: "\(y)", label: "\(y)", zone: "z", seats: (-12...12).map { x in SeatSpec(id: "\(y)-\(x)", label: "\(x)", x: Double(x), y: Double(y)) })
        }
        // A side box to the right (pulling the middle right and up), and a choir seat behind the stage.
        rows.append(RowSpec(id: "box", label: "box", zone: "z", seats: (0..<6).map { k in SeatSpec(id: "box-\(k)", label: "\(k)", x: 12 + Double(k), y: 0) }))
        rows.append(RowSpec(id: "choir", label: "choir", zone: "z", seats: [SeatSpec(id: "choir-1", label: "1", x: 0, y: -8)]))
        let hall = try VenueLayout(
            validating: VenueSpec(
                id: "proscenium", name: "Proscenium", stage: Stage(label: "STAGE", center: FloorPoint(x: 0, y: 0), width: 10, depth: 4),
                zones: [Zone(id: "z", name: "Z", category: "standard", color: "#4A90D9")], rows: rows))
        func view(_ id: String) throws -> SeatView {
            let seat = try #require(hall.index(ofSeatID: id))
            return try #require(hall.view(from: seat), "\(id)")
        }
        // Straight ahead 10 from the front edge: 2·atan(5/10) = 53.130°, still square on (no tilt toward the box).
        let ahead = try view("12-0")
        #expect(abs(ahead.viewingAngle - 53.1301) < 0.001 && abs(ahead.offCentreAngle) < 1e-9 && abs(ahead.distanceInWidths - 1) < 1e-9)
        // 10 right, 8 from the front edge: the ends at 15 and 5 across subtend atan(15/8) − atan(5/8) = 29.922°; off atan(10/8) = 51.340°.
        let aside = try view("10-10")
        #expect(abs(aside.viewingAngle - 29.9221) < 0.001 && abs(aside.offCentreAngle - 51.3402) < 0.001 && aside.verdict == .side)
        // Beside the stage (12 right, 2 behind its front edge, in front of its back): the edge seen end on.
        // The ends at (17, −2) and (7, −2): 9.236°; round from the axis atan2(12, −2) = 99.462°; 0.728 widths to the nearer end.
        let beside = try view("box-0")
        #expect(abs(beside.viewingAngle - 9.2356) < 0.001 && abs(beside.offCentreAngle - 99.4623) < 0.001, "\(beside)")
        #expect(abs(beside.distanceInWidths - 0.7280) < 0.001 && beside.verdict == .side)
        // Behind the stage's back (10 behind the front edge): 2·atan(5/10) = 53.130°, 180° round, behind.
        let choir = try view("choir-1")
        #expect(abs(choir.viewingAngle - 53.1301) < 0.001 && abs(choir.offCentreAngle - 180) < 1e-9 && choir.verdict == .behind)
        #expect(hall.views().allSatisfy { $0 != nil }, "no seat without a view")
    }

    /// A stage in the round seen from its nearer edge: a stage 10 across, a seat 20 from its centre is 15
    /// from its edge: 2·atan(5/15) = 36.870°, 1.5 widths. The sample arena reads as a person sees it.
    @Test func aStageInTheRoundIsSeenFromItsEdge() throws {
        let ring = try VenueLayout(
            validating: VenueSpec(
                id: "ring", name: "Ring", stage: Stage(label: "STAGE", center: FloorPoint(x: 0, y: 0), width: 10),
                zones: [Zone(id: "z", name: "Z", category: "standard", color: "#4A90D9")],
                rows: [20.0, 24.0].map { r in
                    RowSpec(
                        id: "r\(Int(r))", label: "\(Int(r))", zone: "z",
                        seats: (0..<4).map { q in
                            let a = Double(q) * .pi / 2
                            return SeatSpec(id: "r\(Int(r))-\(q)", label: "\(q)", x: r * cos(a), y: r * sin(a))
                        })
                }))
        #expect(ring.depthScale(centre: FloorPoint(x: 0, y: 0), normal: nil) == 1, "seats 28 apart, rows 4: drawn to scale")
        for q in 0..<4 {
            let seat = try #require(ring.index(ofSeatID: "r20-\(q)"))
            let v = try #require(ring.view(from: seat))
            #expect(abs(v.viewingAngle - 36.8699) < 0.001 && abs(v.distanceInWidths - 1.5) < 1e-9 && v.offCentreAngle == 0 && v.verdict == .good)
        }
        // The arena: 20,000 seats round a stage 30 across, from under one stage width at the front to
        // under five at the back of the upper tier (it once said 0° and 6,287 widths for every seat).
        let arena = SampleVenues.arena(seats: 20_000)
        let views = arena.views()
        #expect(views.allSatisfy { $0 != nil })
        let distances = views.compactMap { $0?.distanceInWidths }, angles = views.compactMap { $0?.viewingAngle }
        #expect(distances.min()! > 0.5 && distances.max()! < 5, "\(distances.min()!)…\(distances.max()!)")
        #expect(angles.min()! > 10 && angles.max()! < 90, "\(angles.min()!)…\(angles.max()!)")
        let scale = arena.depthScale(centre: FloorPoint(x: 0, y: 0), normal: nil)
        #expect(scale > 1.5 && scale < 2, "rows 1.1 apart, seats about 1: \(scale)")
        let frontSeat = try #require(arena.index(ofSeatID: "103-24-10"))
        let front = try #require(arena.view(from: frontSeat))
        let p = arena.position(frontSeat)
        let depth = (hypot(p.x, p.y) - 15) * scale
        #expect(abs(front.viewingAngle - 2 * atan(15 / depth) * 180 / .pi) < 1e-9)
    }

    /// Rows 1.49 and 1.51 seat-widths apart read alike: the stretch toward the screen runs on smoothly
    /// (it was all at 1.49 and none at 1.51, and flipped the back row from far to good).
    @Test func theStretchOfASchematicPlanIsContinuous() throws {
        func hall(pitch: Double) throws -> VenueLayout {
            try VenueLayout(
                validating: VenueSpec(
                    id: "p", name: "P", stage: Stage(label: "SCREEN", center: FloorPoint(x: 0, y: 0), width: 10),
                    zones: [Zone(id: "z", name: "Z", category: "standard", color: "#4A90D9")],
                    rows: (1...10).map { k in
                        RowSpec(
                            id: "\(k)", label: "\(k)", zone: "z",
                            seats: (-6...6).map { x in SeatSpec(id: "\(k)-\(x)", label: "\(x)", x: Double(x), y: 2 + Double(k) * pitch) })
                    }))
        }
        let (a, b) = (try hall(pitch: 1.49), try hall(pitch: 1.51))
        let (sa, sb) = (try #require(a.index(ofSeatID: "10-0")), try #require(b.index(ofSeatID: "10-0")))
        let (va, vb) = (try #require(a.view(from: sa)), try #require(b.view(from: sb)))
        #expect(va.verdict == vb.verdict && abs(va.viewingAngle - vb.viewingAngle) < 0.5, "\(va) \(vb)")
        // 1.9 seat-widths a row and more are drawn to scale.
        #expect(abs(try hall(pitch: 1.9).depthScale(centre: FloorPoint(x: 0, y: 0), normal: (0, 1)) - 1) < 1e-6)
        #expect(try hall(pitch: 3).depthScale(centre: FloorPoint(x: 0, y: 0), normal: (0, 1)) == 1)
        #expect(abs(try hall(pitch: 1.0).depthScale(centre: FloorPoint(x: 0, y: 0), normal: (0, 1)) - 1.9) < 1e-9)
    }

    /// The pretix fixture's theatre: every seat has a view of a screen square to the page.
    @Test func aPretixTheatreHasAViewFromEverySeat() throws {
        let layout = try ImportedVenue(format: .pretix, json: sampleBytes("Samples/imports/pretix-plan.json"), fallbackID: "theatre").layout
        let views = layout.views()
        #expect(views.allSatisfy { $0 != nil } && layout.stage != nil)
    }

    @Test func theVerdictsBoundsAndWords() {
        #expect(SeatView.verdict(viewingAngle: 40, offCentre: 20) == .ideal)
        #expect(SeatView.verdict(viewingAngle: 52, offCentre: 0) == .ideal)
        #expect(SeatView.verdict(viewingAngle: 39.9, offCentre: 0) == .good)
        #expect(SeatView.verdict(viewingAngle: 45, offCentre: 20.1) == .good)
        #expect(SeatView.verdict(viewingAngle: 62.1, offCentre: 0) == .tooClose)
        #expect(SeatView.verdict(viewingAngle: 29.9, offCentre: 0) == .far)
        #expect(SeatView.verdict(viewingAngle: 45, offCentre: 35.1) == .side)
        #expect(SeatView.verdict(viewingAngle: 45, offCentre: 90.1) == .behind)
        for v in SeatView.Verdict.allCases {
            let view = SeatView(viewingAngle: 45, distanceInWidths: 1, offCentreAngle: 0, across: 0, verdict: v)
            #expect(!view.words(.chinese).isEmpty && view.words(.chinese) != view.words(.english))
        }
    }
}
