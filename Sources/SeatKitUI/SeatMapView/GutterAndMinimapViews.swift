#if canImport(UIKit)
import CollectionLayout
import SeatCanvas
import UIKit

/// The row numbers pinned to the left edge, at the heights the engine's gutter gives.
@MainActor final class GutterView: UIView {
    var labels: [GutterLabel] = [] { didSet { if labels != oldValue { setNeedsDisplay() } } }

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(red: 0.13, green: 0.13, blue: 0.14, alpha: 0.45)
        isUserInteractionEnabled = false
        isAccessibilityElement = false
    }

    required init?(coder: NSCoder) { return nil }

    override func draw(_ rect: CGRect) {
        let attributes: [NSAttributedString.Key: Any] = [
            .font: UIFont.monospacedDigitSystemFont(ofSize: 11, weight: .medium),
            .foregroundColor: UIColor.white,
        ]
        for label in labels {
            let text = label.label as NSString
            let size = text.size(withAttributes: attributes)
            text.draw(at: CGPoint(x: (bounds.width - size.width) / 2, y: CGFloat(label.y) - size.height / 2), withAttributes: attributes)
        }
    }
}

/// Rows that run up and down the screen (beside an arena's stage) named along the top edge, at the x
/// the engine's top gutter gives; hidden when it names none.
@MainActor final class TopGutterView: UIView {
    var labels: [TopGutterLabel] = [] {
        didSet {
            guard labels != oldValue else { return }
            isHidden = labels.isEmpty
            setNeedsDisplay()
        }
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(red: 0.93, green: 0.94, blue: 0.95, alpha: 0.92)
        isUserInteractionEnabled = false
        isAccessibilityElement = false
        isHidden = true
    }

    required init?(coder: NSCoder) { return nil }

    override func draw(_ rect: CGRect) {
        let attributes: [NSAttributedString.Key: Any] = [
            .font: UIFont.monospacedDigitSystemFont(ofSize: 11, weight: .medium),
            .foregroundColor: UIColor(red: 0.24, green: 0.25, blue: 0.26, alpha: 1),
        ]
        for label in labels {
            let text = label.label as NSString
            let size = text.size(withAttributes: attributes)
            text.draw(at: CGPoint(x: CGFloat(label.x) - size.width / 2, y: (bounds.height - size.height) / 2), withAttributes: attributes)
        }
    }
}

/// The whole venue small, with the viewport's rectangle; a tap reports where (the map pans there).
@MainActor final class MinimapView: UIView {
    var onTap: ((CGPoint) -> Void)?
    private let drawing = DisplayItemLayer()
    private var shown: DisplayList?

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(white: 1, alpha: 0.85)
        layer.cornerRadius = 4
        layer.addSublayer(drawing)
        isAccessibilityElement = false
        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(tapped(_:))))
    }

    required init?(coder: NSCoder) { return nil }

    /// Redraws only when the picture changed (the viewport rectangle moves on every pan).
    func show(_ list: DisplayList) {
        guard list != shown else { return }
        shown = list
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        drawing.frame = bounds
        drawing.configure(.group(id: "minimap", attributes: [:], children: list.items.map(\.command)), scale: traitCollection.displayScale)
        CATransaction.commit()
    }

    @objc private func tapped(_ g: UITapGestureRecognizer) { onTap?(g.location(in: self)) }
}
#endif
