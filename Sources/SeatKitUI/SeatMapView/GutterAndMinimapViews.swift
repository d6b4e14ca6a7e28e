#if canImport(UIKit)
import CollectionLayout
import SeatCanvas
import UIKit

/// Row numbers in a strip: pinned to the left edge at their rows' heights (the engine's gutter), or,
/// `across`, along the top at their x (its top gutter: rows that run up and down the screen; hidden
/// when it names none). A light strip with dark digits, as the web page's.
@MainActor final class GutterView: UIView {
    struct Mark: Equatable {
        var text: String
        /// View points along the strip: a label's centre.
        var at: Double
    }

    let across: Bool
    var marks: [Mark] = [] {
        didSet {
            guard marks != oldValue else { return }
            if across { isHidden = marks.isEmpty }
            setNeedsDisplay()
        }
    }

    init(across: Bool) {
        self.across = across
        super.init(frame: .zero)
        backgroundColor = UIColor(red: 0.93, green: 0.94, blue: 0.95, alpha: 0.92)
        isUserInteractionEnabled = false
        isAccessibilityElement = false
        isHidden = across
    }

    required init?(coder: NSCoder) { return nil }

    override func draw(_ rect: CGRect) {
        let attributes: [NSAttributedString.Key: Any] = [
            .font: UIFont.monospacedDigitSystemFont(ofSize: 11, weight: .medium),
            .foregroundColor: UIColor(red: 0.24, green: 0.25, blue: 0.26, alpha: 1),
        ]
        for mark in marks {
            let text = mark.text as NSString
            let size = text.size(withAttributes: attributes)
            let at = CGFloat(mark.at)
            let origin =
                across
                ? CGPoint(x: at - size.width / 2, y: (bounds.height - size.height) / 2) : CGPoint(x: (bounds.width - size.width) / 2, y: at - size.height / 2)
            text.draw(at: origin, withAttributes: attributes)
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
