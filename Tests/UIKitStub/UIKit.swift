// Stand-in for the part of UIKit (and QuartzCore, CoreGraphics) that SeatKitUI and the example app
// use, with Apple's names and signatures, so `scripts/check-uikit.sh` can type-check them on Linux
// against the real engine modules. Bodies are empty: nothing here runs. When SeatKitUI starts using
// another UIKit API, declare it here exactly as Apple's SDK does.
@_exported import Foundation

/// Linux has no Objective-C runtime: `scripts/check-uikit.sh` rewrites `#selector(m)` to
/// `Selector(String(describing: m as Any))` (so `m` must still exist) and drops `@objc`.
public struct Selector: Hashable, Sendable { public init(_ name: String) {} }

// MARK: Core Graphics and Core Animation

public final class CGColor {}
public final class CGPath {}
public struct CGAffineTransform: Sendable {
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {}
    public static var identity: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
}
extension CGPoint { public func applying(_ t: CGAffineTransform) -> CGPoint { self } }
public enum CGLineCap: Int32, Sendable { case butt, round, square }
public enum CGLineJoin: Int32, Sendable { case miter, round, bevel }

public struct CAShapeLayerLineCap: Hashable, Sendable { public static let butt = Self(), round = Self(), square = Self() }
public struct CATextLayerAlignmentMode: Hashable, Sendable { public static let left = Self(), center = Self(), right = Self(), natural = Self() }

open class CALayer: NSObject {
    public override init() {}
    open var frame: CGRect = .zero
    open var bounds: CGRect = .zero
    open var position: CGPoint = .zero
    open var anchorPoint: CGPoint = .zero
    open var zPosition: CGFloat = 0
    open var opacity: Float = 1
    open var contentsScale: CGFloat = 1
    open var cornerRadius: CGFloat = 0
    open var masksToBounds = false
    open var sublayers: [CALayer]?
    open func addSublayer(_ layer: CALayer) {}
    open func removeFromSuperlayer() {}
    open func setAffineTransform(_ m: CGAffineTransform) {}
}
open class CAShapeLayer: CALayer {
    open var path: CGPath?
    open var fillColor: CGColor?
    open var strokeColor: CGColor?
    open var lineWidth: CGFloat = 1
    open var lineCap: CAShapeLayerLineCap = .butt
    open var lineDashPattern: [NSNumber]?
}
open class CATextLayer: CALayer {
    open var string: Any?
    open var fontSize: CGFloat = 36
    open var foregroundColor: CGColor?
    open var alignmentMode: CATextLayerAlignmentMode = .natural
}
open class CATransaction: NSObject {
    open class func begin() {}
    open class func commit() {}
    open class func setDisableActions(_ flag: Bool) {}
}

// MARK: Colours, fonts, paths, text

open class UIColor: NSObject, @unchecked Sendable {
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
    public init(white: CGFloat, alpha: CGFloat) {}
    open var cgColor: CGColor { CGColor() }
    public static var white: UIColor { UIColor(white: 1, alpha: 1) }
    public static var clear: UIColor { UIColor(white: 0, alpha: 0) }
    public static var systemBackground: UIColor { white }
    public static var secondarySystemBackground: UIColor { white }
    public static var label: UIColor { white }
}
open class UIFont: NSObject, @unchecked Sendable {
    public struct Weight: Hashable, Sendable { public static let regular = Weight(), medium = Weight(), semibold = Weight(), bold = Weight() }
    open class func systemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont { UIFont() }
    open class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont { UIFont() }
}
open class UIBezierPath: NSObject {
    public override init() {}
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) { self.init() }
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) { self.init() }
    open func move(to point: CGPoint) {}
    open func addLine(to point: CGPoint) {}
    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {}
    open func close() {}
    open var cgPath: CGPath { CGPath() }
}
public enum NSTextAlignment: Int, Sendable { case left, center, right, justified, natural }
extension NSAttributedString.Key {
    public static let font = NSAttributedString.Key("NSFont")
    public static let foregroundColor = NSAttributedString.Key("NSColor")
}
extension NSString {
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize { .zero }
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {}
}
public struct UIEdgeInsets: Hashable, Sendable {
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) { self.top = top; self.left = left; self.bottom = bottom; self.right = right }
    public static let zero = UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

// MARK: Accessibility

public struct UIAccessibilityTraits: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static let button = Self(rawValue: 1), selected = Self(rawValue: 8), notEnabled = Self(rawValue: 256)
}
public enum UIAccessibility {
    public struct Notification: Hashable, Sendable {
        public static let layoutChanged = Notification(), announcement = Notification(), screenChanged = Notification()
    }
    @MainActor public static func post(notification: UIAccessibility.Notification, argument: Any?) {}
}
@MainActor open class UIAccessibilityElement: NSObject {
    public init(accessibilityContainer container: Any) {}
    open var accessibilityContainer: Any?
    open var accessibilityLabel: String?
    open var accessibilityTraits: UIAccessibilityTraits = []
    open var accessibilityFrameInContainerSpace: CGRect = .zero
    open func accessibilityActivate() -> Bool { false }
}

// MARK: Views and gestures

open class UITraitCollection: NSObject, @unchecked Sendable {
    open var displayScale: CGFloat { 2 }
}
@MainActor open class UIResponder: NSObject {}
@MainActor open class UIView: UIResponder {
    public init(frame: CGRect) {}
    public required init?(coder: NSCoder) {}
    public convenience override init() { self.init(frame: .zero) }
    public static let noIntrinsicMetric: CGFloat = -1
    open var frame: CGRect = .zero
    open var bounds: CGRect = .zero
    open var layer: CALayer { CALayer() }
    open var backgroundColor: UIColor?
    open var clipsToBounds = false
    open var isHidden = false
    open var isUserInteractionEnabled = true
    open var superview: UIView?
    open var subviews: [UIView] = []
    open var traitCollection: UITraitCollection { UITraitCollection() }
    open var intrinsicContentSize: CGSize { .zero }
    open var isAccessibilityElement = false
    open var accessibilityLabel: String?
    open var accessibilityElements: [Any]?
    open func addSubview(_ view: UIView) {}
    open func removeFromSuperview() {}
    open func layoutSubviews() {}
    open func setNeedsLayout() {}
    open func setNeedsDisplay() {}
    open func draw(_ rect: CGRect) {}
    open func invalidateIntrinsicContentSize() {}
    open func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {}
}
@MainActor public protocol UIScrollViewDelegate: NSObjectProtocol {}
@MainActor open class UIScrollView: UIView {
    public struct DecelerationRate: Hashable, Sendable { public static let normal = Self(), fast = Self() }
    open var contentSize: CGSize = .zero
    open var contentOffset: CGPoint = .zero
    open var contentInset: UIEdgeInsets = .zero
    open weak var delegate: UIScrollViewDelegate?
    open var showsHorizontalScrollIndicator = true
    open var isDirectionalLockEnabled = false
    open var decelerationRate: DecelerationRate = .normal
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {}
}
@MainActor open class UILabel: UIView {
    open var text: String?
    open var font: UIFont?
    open var textColor: UIColor?
    open var textAlignment: NSTextAlignment = .natural
    open var numberOfLines = 1
}
@MainActor open class UIGestureRecognizer: NSObject {
    public enum State: Int { case possible, began, changed, ended, cancelled, failed }
    public init(target: Any?, action: Selector?) {}
    open var state: State { .possible }
    open var view: UIView?
    open func location(in view: UIView?) -> CGPoint { .zero }
}
@MainActor open class UITapGestureRecognizer: UIGestureRecognizer {}
@MainActor open class UIPanGestureRecognizer: UIGestureRecognizer {
    open func translation(in view: UIView?) -> CGPoint { .zero }
    open func setTranslation(_ translation: CGPoint, in view: UIView?) {}
}
@MainActor open class UIPinchGestureRecognizer: UIGestureRecognizer {
    open var scale: CGFloat = 1
}
@MainActor open class UILongPressGestureRecognizer: UIGestureRecognizer {
    open var minimumPressDuration: TimeInterval = 0.5
}

// MARK: App and view controllers (the example app)

@MainActor open class UIScreen: NSObject {
    public static var main: UIScreen { UIScreen() }
    open var bounds: CGRect { .zero }
}
@MainActor open class UIWindow: UIView {
    open var rootViewController: UIViewController?
    open func makeKeyAndVisible() {}
}
@MainActor open class UIApplication: UIResponder {
    public struct LaunchOptionsKey: Hashable, Sendable { public init(rawValue: String) {} }
    nonisolated public static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
}
@MainActor public protocol UIApplicationDelegate: NSObjectProtocol {}
extension UIApplicationDelegate { public static func main() {} }
@MainActor open class UIBarButtonItem: NSObject {
    public enum Style: Int { case plain, done }
    public convenience init(title: String?, style: UIBarButtonItem.Style, target: Any?, action: Selector?) { self.init() }
}
@MainActor open class UINavigationItem: NSObject {
    open var rightBarButtonItem: UIBarButtonItem?
    open var leftBarButtonItem: UIBarButtonItem?
    open var rightBarButtonItems: [UIBarButtonItem]?
}
@MainActor open class UIViewController: UIResponder {
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}
    public required init?(coder: NSCoder) {}
    open var view: UIView! { UIView(frame: .zero) }
    open var title: String?
    open var navigationItem: UINavigationItem { UINavigationItem() }
    open var navigationController: UINavigationController? { nil }
    open func viewDidLoad() {}
    open func viewDidLayoutSubviews() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {}
}
@MainActor open class UIAlertAction: NSObject {
    public enum Style: Int, Sendable { case `default`, cancel, destructive }
    public convenience init(title: String?, style: UIAlertAction.Style, handler: ((UIAlertAction) -> Void)? = nil) { self.init() }
    open var title: String? { nil }
    open var style: UIAlertAction.Style { .default }
}
@MainActor open class UIAlertController: UIViewController {
    public enum Style: Int, Sendable { case actionSheet, alert }
    public convenience init(title: String?, message: String?, preferredStyle: UIAlertController.Style) { self.init(nibName: nil, bundle: nil) }
    open func addAction(_ action: UIAlertAction) {}
    open var actions: [UIAlertAction] { [] }
    open var preferredStyle: UIAlertController.Style { .alert }
}
@MainActor open class UIFeedbackGenerator: NSObject {}
@MainActor open class UINotificationFeedbackGenerator: UIFeedbackGenerator {
    public enum FeedbackType: Int, Sendable { case success, warning, error }
    public override init() {}
    open func notificationOccurred(_ notificationType: UINotificationFeedbackGenerator.FeedbackType) {}
}
@MainActor open class UINavigationController: UIViewController {
    public init(rootViewController: UIViewController) { super.init(nibName: nil, bundle: nil) }
    public required init?(coder: NSCoder) { super.init(coder: coder) }
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {}
}
