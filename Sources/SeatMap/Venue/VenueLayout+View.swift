import Foundation

/// What a seat sees of the screen or stage, from the plan alone (no heights: the horizontal view).
///
/// The screen is the stage's front edge: a segment through the stage's centre (moved half the stage's
/// depth toward the audience when the plan gives one), square to the hall's axis. Plans draw stages as
/// rectangles square to the page (x across, y down), so the axis is the one of the page's four
/// directions nearest to the line from the stage's centre to the middle of the seats: a theatre with
/// seats along its sides keeps its screen square to the page instead of tilting it toward them (283 of
/// 920 seats of a pretix theatre once saw a tilted screen). Facing up or down the page the screen is
/// `stage.width` wide; facing sideways, `stage.depth` (the rectangle's other side) when the plan says.
///
/// A seat level with the screen or behind it (beside a proscenium, behind a screen) is still given a
/// view: it turns to the stage, sees the screen's edge at an angle (`side`) or the stage from behind
/// (`behind`), never nothing. In a hall in the round (the seats' middle within a quarter of their mean
/// distance from the stage) each seat faces the stage square on, and sees its nearer half: the
/// distance is to the stage's edge, not its centre.
///
/// Every angle is the one the screen's two ends subtend at the seat, so the figures run on smoothly
/// from in front to the side to behind.
///
/// Most ticketing plans are schematic: rows one seat-width apart, where a real row is about twice as
/// deep as a seat is wide (a row pitch of 1.0–1.2 m, a seat 0.5–0.6 m). Distances toward the screen are
/// read at 1.9 seat-widths a row when the plan's rows are closer than that: stretched by 1.9 seat-widths
/// over the row pitch, never shrunk, so a plan drawn at 1.49 and one at 1.51 seat-widths a row read alike
/// (the stretch was all or nothing at 1.5, and flipped a back row from `far` to `good`). (Read as drawn,
/// the sample cinema's seventh row would see a 64° screen; at real proportions 37°.)
public struct SeatView: Sendable, Hashable {
    /// The angle the screen's width fills, in degrees (the SMPTE and THX "viewing angle").
    public var viewingAngle: Double
    /// How far the seat is from the screen's nearest point (straight ahead: from its plane), in screen
    /// widths; in the round, from the stage's edge.
    public var distanceInWidths: Double
    /// How far to the side: the angle between the line to the screen's centre and the hall's axis, in
    /// degrees (0: on the centre line).
    public var offCentreAngle: Double
    /// Where the seat is across the screen, from −1 (in line with its left edge, as the seat faces it)
    /// to 1 (its right edge); beyond ±1 outside the screen's width.
    public var across: Double
    public var verdict: Verdict

    public init(viewingAngle: Double, distanceInWidths: Double, offCentreAngle: Double, across: Double, verdict: Verdict) {
        self.viewingAngle = viewingAngle; self.distanceInWidths = distanceInWidths; self.offCentreAngle = offCentreAngle
        self.across = across; self.verdict = verdict
    }

    /// The plain-words verdict, from the cinema-design guidance: SMPTE EG-18 wants at least 30° from
    /// the farthest seat and at most about 60° from the closest; THX builds for 36° at the back; the
    /// recommendations meet at 40–50°; beyond 35° to the side the picture is visibly skewed (the
    /// classic limit is 60° to the far edge of a flat screen).
    public enum Verdict: String, Sendable, CaseIterable {
        /// 40–52°, within 20° of the centre line: the picture fills the view as the film was mixed for.
        case ideal
        /// 30–62°, within 35° of the centre line.
        case good
        /// Over 62°: the screen is wider than the eye takes in; the head turns.
        case tooClose
        /// Under 30°: the screen looks small.
        case far
        /// More than 35° to the side: the picture is seen at a slant.
        case side
        /// Behind the screen's plane or the stage's back: the show is seen from behind, if at all.
        case behind
    }

    /// The verdict of an angle and an off-centre angle (degrees).
    public static func verdict(viewingAngle: Double, offCentre: Double) -> Verdict {
        if offCentre > 90 { return .behind }
        if offCentre > 35 { return .side }
        if viewingAngle > 62 { return .tooClose }
        if viewingAngle < 30 { return .far }
        if viewingAngle >= 40 && viewingAngle <= 52 && offCentre <= 20 { return .ideal }
        return .good
    }

    /// The verdict in a sentence, in Chinese or English.
    public func words(_ language: Language) -> String {
        let zh = language == .chinese
        switch verdict {
        case .ideal: return zh ? "黄金视角：银幕充满视野，正对中央" : "The best view: the screen fills your view, straight ahead"
        case .good: return zh ? "视角舒适" : "A comfortable view"
        case .tooClose: return zh ? "离银幕很近：需要转头看全画面" : "Very close: you will turn your head to see it all"
        case .far: return zh ? "离银幕较远：画面显小" : "Far back: the picture looks small"
        case .side: return zh ? "位置偏侧：画面略有倾斜" : "Well to the side: the picture is seen at a slant"
        case .behind: return zh ? "位于舞台侧后方：看到的是背面" : "Behind the stage: you see the show from the back"
        }
    }
}

extension VenueLayout {
    /// What `seat` sees of the stage; nil when the plan has no stage (or the seat is on its line).
    /// - Complexity: O(1) once the hall's axis is known; the axis is O(seats), computed on each call.
    public func view(from seat: SeatIndex) -> SeatView? {
        guard let axis = viewAxis() else { return nil }
        return view(from: position(seat), axis: axis)
    }

    /// The views of every seat, sharing one axis.
    /// - Complexity: O(seats).
    public func views() -> [SeatView?] {
        guard let axis = viewAxis() else { return Array(repeating: nil, count: seatCount) }
        return seatIndices.map { view(from: position($0), axis: axis) }
    }

    /// The seats whose view is `ideal`, where the hall has one axis (a stage at one end); empty in the
    /// round, where every seat faces the stage and the best are a ring, not an area.
    /// - Complexity: O(seats).
    public func bestViewSeats() -> [SeatIndex] {
        // In the round, without the plan's proportions (an arena's 100k seats: no sort of every gap).
        guard viewAxis(measuringProportions: false)?.normal != nil, let axis = viewAxis() else { return [] }
        return seatIndices.filter { view(from: position($0), axis: axis)?.verdict == .ideal }
    }

    /// The screen's centre and the unit normal toward the seats (nil per seat in the round), its width,
    /// and how much the plan's distances toward the screen are stretched (1: drawn to scale).
    struct ViewAxis {
        var centre: FloorPoint
        var normal: (x: Double, y: Double)?
        var width: Double
        var depthScale = 1.0
        /// How deep the stage is behind the screen's line (0 for a screen): a seat farther back is behind it.
        var stageDepth = 0.0
        /// In the round: the stage's half-extent, the nearest a seat's view can come to its centre.
        var radius = 0.0
    }

    /// A schematic plan's stretch toward the screen (see `SeatView`): 1.9 seat-widths a row over the
    /// median row spacing, at least 1. Rows at the same distance (an arena ring's sections, a row split
    /// by an aisle) are one row: depths closer than a quarter of a seat's width are not a row's pitch
    /// (the arena's rings once gave a pitch of 0.001 and a stretch of 1,900: 6,287 screen widths away).
    func depthScale(centre: FloorPoint, normal: (x: Double, y: Double)?) -> Double {
        var gaps: [Double] = [], rowDepths: [Double] = []
        for row in rows where !row.seats.isEmpty {
            // Along the row: neighbours' distances, the row's seats in order across the plan.
            let points = row.seats.map(position).sorted { ($0.x, $0.y) < ($1.x, $1.y) }
            for k in points.indices.dropFirst() { gaps.append(hypot(points[k].x - points[k - 1].x, points[k].y - points[k - 1].y)) }
            let depth = points.reduce(0.0) { sum, p in
                let vx = p.x - centre.x, vy = p.y - centre.y
                return sum + (normal.map { vx * $0.x + vy * $0.y } ?? hypot(vx, vy))
            }
            rowDepths.append(depth / Double(points.count))
        }
        rowDepths.sort()
        guard !gaps.isEmpty else { return 1 }
        let seatWidth = gaps.sorted()[gaps.count / 2]
        guard seatWidth > 0 else { return 1 }
        let rowGaps = rowDepths.indices.dropFirst().map { rowDepths[$0] - rowDepths[$0 - 1] }.filter { $0 > seatWidth / 4 }
        guard !rowGaps.isEmpty else { return 1 }
        let rowPitch = rowGaps.sorted()[rowGaps.count / 2]
        return max(1, 1.9 * seatWidth / rowPitch)
    }

    func viewAxis(measuringProportions: Bool = true) -> ViewAxis? {
        guard let stage, stage.width > 0, seatCount > 0 else { return nil }
        var sx = 0.0, sy = 0.0, meanDistance = 0.0
        for i in seatIndices {
            let p = position(i)
            sx += p.x; sy += p.y
            meanDistance += hypot(p.x - stage.center.x, p.y - stage.center.y)
        }
        let n = Double(seatCount)
        let dx = sx / n - stage.center.x, dy = sy / n - stage.center.y, length = hypot(dx, dy)
        meanDistance /= n
        guard length > meanDistance / 4, length > 0 else {
            // In the round: the stage is seen across its nearer half, as wide as it is across.
            let across = max(stage.width, stage.depth ?? 0)
            return ViewAxis(
                centre: stage.center, normal: nil, width: across,
                depthScale: measuringProportions ? depthScale(centre: stage.center, normal: nil) : 1, radius: across / 2)
        }
        // The page's direction nearest to the seats' middle: up or down the page, or across it.
        let vertical = abs(dy) >= abs(dx)
        let normal = vertical ? (x: 0.0, y: dy >= 0 ? 1.0 : -1.0) : (x: dx >= 0 ? 1.0 : -1.0, y: 0.0)
        // The rectangle's extent along the axis (its depth facing up or down, its width facing sideways).
        let along = vertical ? stage.depth ?? 0 : stage.depth == nil ? 0 : stage.width
        let width = vertical ? stage.width : stage.depth ?? stage.width
        let centre = FloorPoint(x: stage.center.x + normal.x * along / 2, y: stage.center.y + normal.y * along / 2)
        return ViewAxis(
            centre: centre, normal: normal, width: width, depthScale: measuringProportions ? depthScale(centre: centre, normal: normal) : 1,
            stageDepth: along)
    }

    func view(from p: FloorPoint, axis: ViewAxis) -> SeatView? {
        let vx = p.x - axis.centre.x, vy = p.y - axis.centre.y
        // In the round, the seat faces the stage square on: its own direction is the axis, and it looks
        // at the stage's nearer edge.
        let round = axis.normal == nil
        let normal =
            axis.normal
            ?? {
                let l = hypot(vx, vy); return l > 0 ? (x: vx / l, y: vy / l) : (x: 0, y: 1)
            }()
        let toward = vx * normal.x + vy * normal.y
        let depth = (round ? max(0, toward - axis.radius) : toward) * axis.depthScale
        if round && depth <= 1e-9 { return nil }  // on the stage
        // Across the screen as the seat faces it (looking along −normal; plans grow y downward, so the
        // seat's right is (n.y, −n.x) on the page).
        let lateral = vx * normal.y - vy * normal.x
        let half = axis.width / 2
        // The angle the screen's two ends subtend at the seat: in front, beside or behind alike.
        let (ax, bx) = (lateral + half, lateral - half)
        let angle = atan2(abs(ax * depth - depth * bx), ax * bx + depth * depth) * 180 / .pi
        // How far round from the axis the seat sees the screen's centre: 0 straight ahead, 90 level with it, 180 behind.
        let off = atan2(abs(lateral), depth) * 180 / .pi
        // Behind the stage's back (a screen's back is its plane); level with the stage is to its side.
        let verdict: SeatView.Verdict =
            !round && toward < -axis.stageDepth - 1e-9 ? .behind : off > 35 ? .side : SeatView.verdict(viewingAngle: angle, offCentre: off)
        return SeatView(
            viewingAngle: angle, distanceInWidths: hypot(depth, max(0, abs(lateral) - half)) / axis.width, offCentreAngle: off, across: lateral / half,
            verdict: verdict)
    }
}
