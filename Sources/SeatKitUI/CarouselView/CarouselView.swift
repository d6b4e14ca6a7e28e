#if canImport(UIKit)
import CollectionLayout
import UIKit

@MainActor public protocol CarouselViewDataSource: AnyObject {
    func numberOfItems(in carousel: CarouselView) -> Int
    /// A view for the item; `reusing` is a view that showed another item, or nil.
    func carousel(_ carousel: CarouselView, viewForItem item: Int, reusing view: UIView?) -> UIView
}

@MainActor public protocol CarouselViewDelegate: AnyObject {
    /// Start loading what these items need (an image) before they appear.
    func carousel(_ carousel: CarouselView, prefetchItems items: [Int])
    /// They left the preload range without being shown: cancel those loads.
    func carousel(_ carousel: CarouselView, cancelPrefetchingItems items: [Int])
    func carousel(_ carousel: CarouselView, didSelectItem item: Int)
}

extension CarouselViewDelegate {
    public func carousel(_ carousel: CarouselView, prefetchItems items: [Int]) {}
    public func carousel(_ carousel: CarouselView, cancelPrefetchingItems items: [Int]) {}
    public func carousel(_ carousel: CarouselView, didSelectItem item: Int) {}
}

/// One compositional section (show-time cards, a list, two columns), switchable at run time through
/// `preset`. The card preset scrolls sideways and snaps where the engine says; prefetch and cancel
/// come from the engine's planner; the height follows the content (`intrinsicContentSize`).
///
/// ```swift
/// let times = CarouselView(preset: .cardCarousel)
/// times.dataSource = self; times.delegate = self   // cards; prefetch posters as they approach
/// times.preset = .list                              // same items, another style, at run time
/// ```
@MainActor public final class CarouselView: UIView, UIScrollViewDelegate {
    public weak var dataSource: CarouselViewDataSource? { didSet { reloadData() } }
    public weak var delegate: CarouselViewDelegate?
    public var preset: SectionPreset { didSet { reloadData() } }
    public private(set) var layout = CompositionalLayout(sections: [], containerSize: LayoutSize(width: 0, height: 0))
    private let scrollView = UIScrollView()
    private var reuse = ReuseCoordinator<Int, UIView>(poolCapacity: 8)
    private var planner = PrefetchPlanner()
    private var lastOffset = 0.0

    public init(preset: SectionPreset = .cardCarousel) {
        self.preset = preset
        super.init(frame: .zero)
        scrollView.delegate = self
        scrollView.showsHorizontalScrollIndicator = false
        scrollView.decelerationRate = .fast
        addSubview(scrollView)
        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(tapped(_:))))
    }

    public required init?(coder: NSCoder) { return nil }

    var isSideways: Bool { layout.sections.first.map { $0.orthogonalScrolling != .none } ?? false }

    public override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(layout.contentSize.height))
    }

    public func reloadData() {
        let count = dataSource?.numberOfItems(in: self) ?? 0
        layout = CompositionalLayout(sections: [preset.section(itemCount: count)], containerSize: LayoutSize(bounds.size))
        planner = PrefetchPlanner()
        scrollView.contentOffset = .zero
        invalidateIntrinsicContentSize()
        setNeedsLayout()
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        if layout.containerSize != LayoutSize(bounds.size) {
            layout.resize(to: LayoutSize(bounds.size))
            invalidateIntrinsicContentSize()
        }
        scrollView.frame = bounds
        guard !layout.sections.isEmpty else { return }
        if isSideways {
            let range = layout.orthogonalRange(0)
            scrollView.contentInset = UIEdgeInsets(top: 0, left: CGFloat(-range.lowerBound), bottom: 0, right: 0)
            scrollView.contentSize = CGSize(width: CGFloat(range.upperBound) + bounds.width, height: bounds.height)
        } else {
            scrollView.contentSize = layout.contentSize.cgSize
        }
        place()
    }

    /// Shows the items on screen (reused views), then tells the delegate what to prefetch or cancel.
    /// - Complexity: O(visible items + preload range).
    private func place() {
        guard let dataSource else { return }
        let offset = scrollView.contentOffset
        var visible = LayoutRect(x: 0, y: Double(offset.y), width: Double(bounds.width), height: Double(bounds.height))
        if isSideways { layout.orthogonalOffsets[0] = Double(offset.x); visible.origin.y = 0 }
        let attributes = layout.attributes(in: visible).filter { $0.kind == .item }
        // Containers come from the engine's reuse coordinator; the data source fills them.
        let before = reuse.visible
        let diff = reuse.update(attributes.map { (key: $0.path.item, identifier: "item") }) { _ in UIView() }
        for item in diff.leaving { before[item]?.removeFromSuperview() }
        for item in diff.entering {
            guard let container = reuse.visible[item] else { continue }
            let previous = container.subviews.first
            let content = dataSource.carousel(self, viewForItem: item, reusing: previous)
            if content !== previous { previous?.removeFromSuperview(); container.addSubview(content) }
            scrollView.addSubview(container)
        }
        for a in attributes {
            guard let container = reuse.visible[a.path.item] else { continue }
            // Sideways, frames are relative to the view; move them into the scroll view's content.
            container.frame = a.frame.cgRect.offsetBy(dx: isSideways ? offset.x : 0, dy: 0)
            container.subviews.first?.frame = container.bounds
        }
        let window = layout.groupWindow(section: 0, visible: visible)
        let position = isSideways ? Double(offset.x) : Double(offset.y)
        let events = planner.update(axis: layout.groupAxis(0), offset: window.offset, length: window.length, velocity: position - lastOffset)
        lastOffset = position
        var prefetch: [Int] = [], cancel: [Int] = []
        for event in events {
            switch event {
            case .prefetch(let key): prefetch += layout.items(inGroup: key.index, section: 0)
            case .cancel(let key): cancel += layout.items(inGroup: key.index, section: 0)
            }
        }
        if !cancel.isEmpty { delegate?.carousel(self, cancelPrefetchingItems: cancel) }
        if !prefetch.isEmpty { delegate?.carousel(self, prefetchItems: prefetch) }
    }

    public func scrollViewDidScroll(_ scrollView: UIScrollView) { place() }

    /// Snapping: where a sideways fling ends is the engine's choice (paging, group paging, centred).
    public func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint, targetContentOffset: UnsafeMutablePointer<CGPoint>) {
        guard isSideways else { return }
        // UIKit gives points per millisecond; the engine takes points per second.
        let target = layout.orthogonalTarget(section: 0, offset: Double(scrollView.contentOffset.x), velocity: Double(velocity.x) * 1000)
        targetContentOffset.pointee.x = CGFloat(target)
    }

    @objc private func tapped(_ g: UITapGestureRecognizer) {
        let p = g.location(in: self)
        let point = LayoutRect(x: Double(p.x), y: Double(p.y + (isSideways ? 0 : scrollView.contentOffset.y)), width: 1, height: 1)
        if let hit = layout.attributes(in: point).first(where: { $0.kind == .item }) { delegate?.carousel(self, didSelectItem: hit.path.item) }
    }
}
#endif
