#if canImport(UIKit)
import CollectionLayout
import SeatCanvas
import SeatMap
import SeatSync
import UIKit

/// What a seat map reports; both have empty defaults.
@MainActor public protocol SeatMapViewDelegate: AnyObject {
    /// A tap landed on a seat (the engine's hit test, with a 44-point target).
    func seatMapView(_ view: SeatMapView, didTapSeat seat: SeatIndex)
    /// A press-and-drag crossed these seats, in order (one atomic selection).
    func seatMapView(_ view: SeatMapView, didDragAcross seats: [SeatIndex])
    /// The bound session refused something; the message is in both languages.
    func seatMapView(_ view: SeatMapView, didReceive message: SessionMessage)
    /// A tap landed in a general-admission area: its places are asked for by count (show a stepper;
    /// `SeatSession.setPlaces`).
    func seatMapView(_ view: SeatMapView, didTapArea area: PlacedArea)
}

extension SeatMapViewDelegate {
    public func seatMapView(_ view: SeatMapView, didTapSeat seat: SeatIndex) {}
    public func seatMapView(_ view: SeatMapView, didDragAcross seats: [SeatIndex]) {}
    public func seatMapView(_ view: SeatMapView, didReceive message: SessionMessage) {}
    public func seatMapView(_ view: SeatMapView, didTapArea area: PlacedArea) {}
}

/// A zoomable seat map: the engine decides what is visible, at which level of detail, where a finger
/// lands and what a screen reader says; this view only turns the display list into layers (reused from
/// a pool, changed by the render diff) and forwards touches.
///
/// ```swift
/// let map = SeatMapView(canvas: SeatCanvas(layout: hall), content: FrameContent(availability: show))
/// map.bind(to: session)          // taps select through the session; its state redraws the map
/// ```
@MainActor public final class SeatMapView: UIView {
    public let canvas: SeatCanvas
    public weak var delegate: SeatMapViewDelegate?
    public var detailPolicy = DetailPolicy() { didSet { render() } }
    /// What is drawn besides the geometry: statuses, selection, prices, heat map, language.
    public var content: FrameContent { didSet { if !applyingChanges { render() } } }
    public private(set) var viewport: Viewport?

    let mapLayer = CALayer()
    var itemLayers: [String: DisplayItemLayer] = [:]
    var layerPool = ReusePool<DisplayItemLayer>(capacityPerIdentifier: 512)
    var shown: DisplayList?
    let gutterView = GutterView(across: false)
    let topGutterView = GutterView(across: true)
    let minimapView = MinimapView()
    var dragPoints: [LayoutPoint] = []
    var session: SeatSession?
    var sessionTask: Task<Void, Never>?
    /// Announces the bound session's messages, each once.
    var messageTask: Task<Void, Never>?
    /// Resumes the bound session when the app returns to the foreground.
    var foregroundObserver: NSObjectProtocol?
    var cachedAccessibilityElements: [UIAccessibilityElement]?
    var applyingChanges = false

    /// The row gutter's width: the viewport lets the map rest this far right, so no seat sits under it.
    static let gutterWidth = 28.0

    public init(canvas: SeatCanvas, content: FrameContent) {
        self.canvas = canvas
        self.content = content
        super.init(frame: .zero)
        clipsToBounds = true
        backgroundColor = .white
        mapLayer.anchorPoint = .zero
        mapLayer.bounds = CGRect(origin: .zero, size: canvas.contentSize.cgSize)
        layer.addSublayer(mapLayer)
        addSubview(gutterView)
        addSubview(topGutterView)
        addSubview(minimapView)
        minimapView.onTap = { [weak self] point in self?.minimapTapped(at: point) }
        installGestures()
    }

    public required init?(coder: NSCoder) { return nil }

    /// Rotation and split-screen resizes keep the point at the centre where it was (the engine's resize).
    public override func layoutSubviews() {
        super.layoutSubviews()
        let size = LayoutSize(bounds.size)
        guard size.width > 0, size.height > 0 else { return }
        if var v = viewport {
            if v.viewSize != size { v.resize(to: size); viewport = v }
        } else {
            viewport = canvas.touchViewport(viewSize: size, gutterWidth: Self.gutterWidth)
        }
        gutterView.frame = CGRect(x: 0, y: 0, width: CGFloat(Self.gutterWidth), height: bounds.height)
        topGutterView.frame = CGRect(x: 0, y: 0, width: bounds.width, height: 18)
        let mini = CGSize(width: min(140, bounds.width / 3), height: min(100, bounds.height / 4))
        minimapView.frame = CGRect(x: bounds.width - mini.width - 8, y: 8, width: mini.width, height: mini.height)
        render()
    }

    /// Moves the map (a programmatic pan, zoom or "show this seat"); the engine clamps it.
    public func updateViewport(_ change: (inout Viewport) -> Void) {
        guard var v = viewport else { return }
        change(&v)
        viewport = v
        render()
    }

    /// Draws the frame for the current viewport: only what changed since the last one is touched.
    /// - Complexity: O(visible items).
    func render() {
        guard let viewport else { return }
        let list = canvas.displayList(viewport: viewport, content: content, policy: detailPolicy)
        apply(shown.map { RenderDiff(from: $0, to: list) } ?? RenderDiff(inserted: list.items, transformChanged: true), transform: list.transform)
        shown = list
        gutterView.marks = canvas.gutter(in: viewport, policy: detailPolicy).map { .init(text: $0.label, at: $0.y) }
        topGutterView.marks = canvas.topGutter(in: viewport, policy: detailPolicy).map { .init(text: $0.label, at: $0.x) }
        let minimap = canvas.minimap(fitting: LayoutSize(minimapView.bounds.size))
        minimapView.show(canvas.minimapDisplayList(minimap, viewport: viewport, content: content))
        cachedAccessibilityElements = nil
    }

    /// Live changes (another buyer's hold, a sale): at seat level only the changed seats' layers are
    /// touched (the engine's O(changes) diff); zoomed out, the frame is redrawn for the new counts.
    public func apply(changes: [SeatChange]) {
        var next = content
        for change in changes { _ = next.availability.setStatus(change.status, for: change.seat) }
        applyingChanges = true
        content = next
        applyingChanges = false
        let diff = canvas.updates(after: changes, in: viewport, content: content, policy: detailPolicy)
        if diff.isEmpty { render() } else { apply(diff, transform: shown?.transform ?? ScaleTranslate()) }
        cachedAccessibilityElements = nil
    }

    func apply(_ diff: RenderDiff, transform: ScaleTranslate) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let scale = traitCollection.displayScale * CGFloat(transform.scale)
        for id in diff.removed {
            guard let layer = itemLayers.removeValue(forKey: id) else { continue }
            layer.removeFromSuperlayer()
            _ = layerPool.enqueue(layer, identifier: "item")
        }
        for item in diff.inserted {
            let layer = layerPool.dequeue("item") ?? DisplayItemLayer()
            layer.configure(item.command, scale: scale)
            layer.zPosition = CGFloat(item.layer.rawValue)
            mapLayer.addSublayer(layer)
            itemLayers[item.id] = layer
        }
        for item in diff.updated { itemLayers[item.id]?.configure(item.command, scale: scale) }
        if diff.transformChanged {
            mapLayer.setAffineTransform(
                CGAffineTransform(
                    a: CGFloat(transform.scale), b: 0, c: 0, d: CGFloat(transform.scale),
                    tx: CGFloat(transform.translation.x), ty: CGFloat(transform.translation.y)))
        }
        CATransaction.commit()
    }

    // — VoiceOver: the visible seats in reading order, from the engine's accessibility model —

    public override var isAccessibilityElement: Bool {
        get { false }
        set {}
    }

    public override var accessibilityElements: [Any]? {
        get {
            if let cachedAccessibilityElements { return cachedAccessibilityElements }
            guard let viewport else { return [] }
            let elements = canvas.accessibilityElements(in: viewport, content: content).map { model -> UIAccessibilityElement in
                let element = SeatAccessibilityElement(accessibilityContainer: self)
                element.seat = model.seat
                element.accessibilityLabel = model.label
                var traits: UIAccessibilityTraits = []
                if model.traits.contains(.button) { traits.insert(.button) }
                if model.traits.contains(.selected) { traits.insert(.selected) }
                if model.traits.contains(.notEnabled) { traits.insert(.notEnabled) }
                element.accessibilityTraits = traits
                element.accessibilityFrameInContainerSpace = model.frame.cgRect
                return element
            }
            cachedAccessibilityElements = elements
            return elements
        }
        set {}
    }

    func minimapTapped(at point: CGPoint) {
        guard let viewport else { return }
        let minimap = canvas.minimap(fitting: LayoutSize(minimapView.bounds.size))
        self.viewport = minimap.pan(viewport, tappedAt: LayoutPoint(point))
        render()
    }
}
#endif
