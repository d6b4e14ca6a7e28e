import Foundation
import SeatMap

/// "View from your seat": the screen as the seat sees it, a small perspective picture (SVG, 240 × 135)
/// drawn from `SeatView` alone: a pinhole camera at the seat, looking at the screen's centre with a 90°
/// field of view, the screen a 2.39 : 1 ("scope") frame with its centre a little above eye level, and
/// the floor's lines running to the screen; from behind the screen's plane, the screen's unlit back,
/// mirrored. Adapters show it as it is (the picker's seat card).
public enum SeatViewPicture {
    public static let width = 240.0, height = 135.0
    /// Pixels a unit of `X / Z` (half the width at 45°: a 90° field of view).
    static let focal = 120.0
    /// Eye level, from the top.
    static let horizon = 78.0

    /// The screen's corners on the picture: left top, right top, right bottom, left bottom.
    /// - Complexity: O(1).
    public static func corners(_ view: SeatView) -> [(x: Double, y: Double)] {
        // The screen frame: the screen from (−1, 0) to (1, 0) (half-widths), the seat at (across, depth);
        // behind the screen's plane (`behind`: more than 90° off its axis) the depth is negative, and the
        // camera sees the screen's back, its left end on the picture's right.
        let lateral = view.across, depth = view.distanceInWidths * 2 * (view.offCentreAngle > 90 ? -1 : 1)
        let norm = hypot(lateral, depth)
        let forward = (x: -lateral / norm, z: -depth / norm), right = (x: depth / norm, z: -lateral / norm)
        let height = 2 / 2.39  // the frame's height, in half-widths
        func project(_ s: Double) -> (x: Double, z: Double) {
            let w = (x: s - lateral, z: -depth)
            return (w.x * right.x + w.z * right.z, w.x * forward.x + w.z * forward.z)
        }
        let left = project(-1), rightEdge = project(1)
        func point(_ p: (x: Double, z: Double), up: Double) -> (x: Double, y: Double) {
            (width / 2 + focal * p.x / p.z, horizon - focal * up / p.z)
        }
        // The frame's centre 0.1 of its height above the eye: 0.6 of it above, 0.4 below.
        return [
            point(left, up: 0.6 * height), point(rightEdge, up: 0.6 * height), point(rightEdge, up: -0.4 * height), point(left, up: -0.4 * height),
        ]
    }

    /// The picture, its accessible name the verdict and the angles in `language`.
    public static func svg(_ view: SeatView, language: Language) -> String {
        let c = corners(view)
        func n(_ v: Double) -> String { String(format: "%.1f", min(max(v, -2000), 2000)) }
        let zh = language == .chinese
        let angle = Int(view.viewingAngle.rounded()), off = Int(view.offCentreAngle.rounded())
        let label =
            zh
            ? "座位视角示意：\(view.words(.chinese))。银幕占视野 \(angle)°，偏离中线 \(off)°"
            : "View from the seat: \(view.words(.english)). The screen fills \(angle)° of the view, \(off)° off the centre line"
        let screen = c.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        // The floor's lines, from the picture's bottom edge to the screen's bottom corners and between.
        // Its bottom corners left to right on the picture (mirrored from behind).
        let (bl, br) = c[3].x <= c[2].x ? (c[3], c[2]) : (c[2], c[3])
        var floor = ""
        for k in 0...4 {
            let t = Double(k) / 4
            let tx = bl.x + (br.x - bl.x) * t, ty = bl.y + (br.y - bl.y) * t
            floor += "<line x1=\"\(n(-60 + 360 * t))\" y1=\"\(n(height))\" x2=\"\(n(tx))\" y2=\"\(n(ty))\"/>"
        }
        // From behind, the screen's back: an unlit panel with its frame's struts, not the glowing picture.
        let back = view.verdict == .behind
        let panel =
            back
            ? "<polygon points=\"\(screen)\" fill=\"#3b3e46\" stroke=\"#6b6f7a\" stroke-width=\"1\"/><g stroke=\"#555964\" stroke-width=\"1\">"
                + (1...3).map { k -> String in
                    let t = Double(k) / 4
                    return "<line x1=\"\(n(c[0].x + (c[1].x - c[0].x) * t))\" y1=\"\(n(c[0].y + (c[1].y - c[0].y) * t))\" "
                        + "x2=\"\(n(c[3].x + (c[2].x - c[3].x) * t))\" y2=\"\(n(c[3].y + (c[2].y - c[3].y) * t))\"/>"
                }.joined() + "</g>"
            : "<polygon points=\"\(screen)\" fill=\"url(#glow)\" stroke=\"#e6ebf2\" stroke-width=\"1\"/>"
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 135" width="240" height="135" role="img" aria-label="\(escape(label))">\
            <title>\(escape(label))</title>\
            <defs><linearGradient id="glow" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f4f7fb"/><stop offset="1" stop-color="#bcc9dc"/></linearGradient></defs>\
            <rect width="240" height="135" fill="#17181c"/>\
            <polygon points="\(n(bl.x)),\(n(bl.y)) \(n(br.x)),\(n(br.y)) 300,135 -60,135" fill="#2a2b31"/>\
            <g stroke="#3d3f47" stroke-width="1">\(floor)</g>\
            \(panel)\
            </svg>
            """
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
