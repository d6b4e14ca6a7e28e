#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SwiftUI

/// One compositional section (show-time cards, a list, two columns) for SwiftUI, the counterpart of
/// the UIKit `CarouselView`: the engine places the items, decides where a sideways fling comes to rest
/// (`orthogonalTarget`: the card preset snaps one card at a time, centred) and plans prefetch and
/// cancel; only the items on screen exist as views.
///
/// ```swift
/// SeatCarousel(count: shows.count, preset: .cardCarousel) { index in ShowCard(shows[index]) }
///     .onPrefetch { items in posters.load(items) }
///     .onCancelPrefetch { items in posters.cancel(items) }
///     .onSelect { index in open(shows[index]) }
///     .frame(height: 136)   // the card preset: 120-point cards with 8-point insets
/// ```
public struct SeatCarousel<Item: View>: View {
    public let count: Int
    public let preset: SectionPreset
    let item: (Int) -> Item
    var prefetchAction: (([Int]) -> Void)?
    var cancelAction: (([Int]) -> Void)?
    var selectAction: ((Int) -> Void)?

    /// The scroll position along the section's axis: sideways for the card preset, down for the others.
    @State var offset = 0.0
    @State var dragOrigin: Double?
    @State var glide: ScrollGlide?
    @State var planner = PrefetchPlanner()
    @State var plannedOffset = 0.0

    /// `count` items in `preset`'s style (switch presets at run time by making the view again).
    public init(count: Int, preset: SectionPreset = .cardCarousel, @ViewBuilder item: @escaping (Int) -> Item) {
        self.count = count
        self.preset = preset
        self.item = item
    }

    /// The engine's layout for a container of `size`.
    /// - Complexity: O(items) (the section's group axis), per container size.
    func layout(_ size: LayoutSize) -> CompositionalLayout {
        CompositionalLayout(sections: [preset.section(itemCount: count)], containerSize: size)
    }

    func isSideways(_ layout: CompositionalLayout) -> Bool { layout.sections.first.map { $0.orthogonalScrolling != .none } ?? false }

    /// The range the offset may take.
    func range(_ layout: CompositionalLayout, _ size: LayoutSize) -> ClosedRange<Double> {
        isSideways(layout) ? layout.orthogonalRange(0) : 0...max(layout.contentSize.height - size.height, 0)
    }

    func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double { min(max(value, range.lowerBound), range.upperBound) }

    public var body: some View {
        GeometryReader { proxy in
            let size = LayoutSize(proxy.size)
            let layout = layout(size)
            TimelineView(.animation(minimumInterval: nil, paused: glide == nil)) { timeline in
                items(layout, at: glide?.offset(at: timeline.date).x ?? offset, size: size)
            }
            .frame(width: proxy.size.width, height: proxy.size.height, alignment: .topLeading)
            .contentShape(Rectangle())
            .gesture(scroll(layout, size))
            .simultaneousGesture(SpatialTapGesture().onEnded { tapped(at: $0.location, layout, size) })
            .accessibilityElement(children: .contain)
            .accessibilityScrollAction { edge in page(toward: edge, layout, size) }
            .onAppear { plan(layout, size) }
            .onValueChange(of: offset) { _ in plan(layout, size) }
        }
        .clipped()
        .clearingGlide($glide)
    }

    /// The layout with the section scrolled to `offset`, and the rectangle that is on screen.
    func scrolled(_ layout: CompositionalLayout, to offset: Double, _ size: LayoutSize) -> (CompositionalLayout, LayoutRect) {
        var l = layout
        if isSideways(l) {
            l.orthogonalOffsets[0] = offset
            return (l, LayoutRect(x: 0, y: 0, width: size.width, height: size.height))
        }
        return (l, LayoutRect(x: 0, y: offset, width: size.width, height: size.height))
    }

    /// The items on screen at `offset`, where the engine puts them.
    /// - Complexity: O(log items + visible items).
    func items(_ layout: CompositionalLayout, at offset: Double, size: LayoutSize) -> some View {
        let (l, visible) = scrolled(layout, to: offset, size)
        // Sideways, the engine's frames are already relative to the view; down, they are in content.
        let dy = isSideways(l) ? 0 : offset
        let placed = l.attributes(in: visible).filter { $0.kind == .item }
        return ZStack(alignment: .topLeading) {
            ForEach(placed, id: \.path.item) { a in
                item(a.path.item)
                    .frame(width: CGFloat(a.frame.width), height: CGFloat(a.frame.height))
                    .position(x: CGFloat(a.frame.midX), y: CGFloat(a.frame.midY - dy))
            }
        }
    }

    func scroll(_ layout: CompositionalLayout, _ size: LayoutSize) -> some Gesture {
        let sideways = isSideways(layout)
        let limits = range(layout, size)
        return DragGesture(minimumDistance: 4)
            .onChanged { value in
                let origin = dragOrigin ?? (glide?.offset(at: Date()).x ?? offset)
                if dragOrigin == nil {
                    dragOrigin = origin
                    glide = nil
                }
                offset = clamp(origin - Double(sideways ? value.translation.width : value.translation.height), limits)
            }
            .onEnded { value in
                let end: Double
                if sideways {
                    // Positive velocity is towards later items: the finger moves the other way.
                    end = layout.orthogonalTarget(section: 0, offset: offset, velocity: -Double(value.liftVelocity.width))
                } else {
                    end = clamp((dragOrigin ?? offset) - Double(value.predictedEndTranslation.height), limits)
                }
                glide = ScrollGlide(from: LayoutPoint(x: offset, y: 0), to: LayoutPoint(x: end, y: 0), start: Date())
                offset = end
                dragOrigin = nil
            }
    }

    func tapped(at point: CGPoint, _ layout: CompositionalLayout, _ size: LayoutSize) {
        let shownOffset = glide?.offset(at: Date()).x ?? offset
        let (l, _) = scrolled(layout, to: shownOffset, size)
        let dy = isSideways(l) ? 0 : shownOffset
        let probe = LayoutRect(x: Double(point.x), y: Double(point.y) + dy, width: 1, height: 1)
        if let hit = l.attributes(in: probe).first(where: { $0.kind == .item }) { selectAction?(hit.path.item) }
    }

    /// VoiceOver's three-finger scroll: one card (the engine's flick) or most of a screen.
    func page(toward edge: Edge, _ layout: CompositionalLayout, _ size: LayoutSize) {
        let later = edge == .trailing || edge == .bottom
        let end: Double
        if isSideways(layout) {
            end = layout.orthogonalTarget(section: 0, offset: offset, velocity: later ? 1000 : -1000)
        } else {
            end = clamp(offset + (later ? 0.8 : -0.8) * size.height, range(layout, size))
        }
        glide = ScrollGlide(from: LayoutPoint(x: offset, y: 0), to: LayoutPoint(x: end, y: 0), start: Date())
        offset = end
    }

    /// Tells the app what to start loading and what to stop, from the engine's prefetch planner, for
    /// where the section is going to rest.
    func plan(_ layout: CompositionalLayout, _ size: LayoutSize) {
        let (l, visible) = scrolled(layout, to: offset, size)
        let window = l.groupWindow(section: 0, visible: visible)
        var next = planner
        let events = next.update(axis: l.groupAxis(0), offset: window.offset, length: window.length, velocity: offset - plannedOffset)
        planner = next
        plannedOffset = offset
        var prefetch: [Int] = [], cancel: [Int] = []
        for event in events {
            switch event {
            case .prefetch(let key): prefetch += l.items(inGroup: key.index, section: 0)
            case .cancel(let key): cancel += l.items(inGroup: key.index, section: 0)
            }
        }
        if !cancel.isEmpty { cancelAction?(cancel) }
        if !prefetch.isEmpty { prefetchAction?(prefetch) }
    }
}

extension SeatCarousel {
    /// Heard with items coming near the screen: start loading what they need (a poster).
    public func onPrefetch(_ action: @escaping ([Int]) -> Void) -> Self {
        var copy = self
        copy.prefetchAction = action
        return copy
    }

    /// Heard with items that left the preload range unseen: cancel those loads.
    public func onCancelPrefetch(_ action: @escaping ([Int]) -> Void) -> Self {
        var copy = self
        copy.cancelAction = action
        return copy
    }

    /// Heard when an item is tapped.
    public func onSelect(_ action: @escaping (Int) -> Void) -> Self {
        var copy = self
        copy.selectAction = action
        return copy
    }
}
#endif
