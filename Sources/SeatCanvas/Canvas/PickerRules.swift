import CollectionLayout
import SeatJSON
import SeatMap

/// Every number a picker that cannot call Swift (the web page) needs to behave as the engine does:
/// zoom limits, insets, the level-of-detail thresholds, the hit-test radius, the gutter spacing and
/// the drag path's sampling. Written here once, from the same constants the engine's code uses, sent to
/// the page, and held to the engine's results by vectors the engine writes (`Tests/Web/Vectors`).
public struct PickerRules: Sendable, Hashable {
    public var limits: ZoomLimits
    /// Room to pan past each edge, in view points.
    public var inset: Double
    public var detail: DetailPolicy
    /// The nearest seat within this many view points of a tap is the one tapped.
    public var hitRadius: Double
    public var gutterSpacing: Double
    public var dragSlack: Double
    public var dragStep: Double
    public var seatSize: Double
    public var pitch: Double
    /// A touch screen's first look has seats at least this big (unless it opens at the zones level or whole).
    public var openingSeatSize: Double
    /// A hall whose seats are at least this big when it all fits opens whole on a touch screen.
    public var wholeHallSeatSize: Double = SeatCanvas.wholeHallSeatSize
    /// A touch screen's map, sized to its hall, is never shorter than this.
    public var minimumTouchViewHeight: Double = SeatCanvas.minimumTouchViewHeight

    /// As JSON, for the page: `{"zoom":{…},"inset":24,"detail":{…},…}`.
    public var json: String {
        var w = JSONWriter()
        w.raw("{")
        w.key("zoom", first: true)
        w.raw("{")
        w.key("minimumShortSide", first: true); w.number(limits.minimumShortSide)
        w.key("smallestItem"); w.number(limits.smallestItem)
        w.key("touchTarget"); w.number(limits.touchTarget)
        w.key("overzoom"); w.number(limits.overzoom)
        w.raw("}")
        w.key("inset"); w.number(inset)
        w.key("detail")
        w.raw("{")
        w.key("zonesBelow", first: true); w.number(detail.zonesBelow)
        w.key("rowsBelow"); w.number(detail.rowsBelow)
        w.key("labelsFrom"); w.number(detail.labelsFrom)
        w.raw("}")
        w.key("hitRadius"); w.number(hitRadius)
        w.key("gutterSpacing"); w.number(gutterSpacing)
        w.key("dragSlack"); w.number(dragSlack)
        w.key("dragStep"); w.number(dragStep)
        w.key("seatSize"); w.number(seatSize)
        w.key("pitch"); w.number(pitch)
        w.key("openingSeatSize"); w.number(openingSeatSize)
        w.key("wholeHallSeatSize"); w.number(wholeHallSeatSize)
        w.key("minimumTouchViewHeight"); w.number(minimumTouchViewHeight)
        w.raw("}")
        return w.text
    }
}

extension SeatCanvas {
    /// The rules of this canvas under `policy`.
    public func pickerRules(policy: DetailPolicy = DetailPolicy()) -> PickerRules {
        PickerRules(
            limits: zoomLimits, inset: Self.viewportInset, detail: policy, hitRadius: Self.touchTarget / 2,
            gutterSpacing: Self.gutterSpacing, dragSlack: dragSlack, dragStep: dragStep, seatSize: style.seatSize, pitch: style.pitch,
            openingSeatSize: Self.openingSeatSize)
    }
}
