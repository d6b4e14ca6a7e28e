// Stand-in for the part of SwiftUI that SeatKitUI's SwiftUI views and the example app use, with
// Apple's names, signatures and isolation (the iOS 18+ SDK: `View` and `Gesture` are main-actor
// protocols, built-in views and gestures `nonisolated` types, modifiers `nonisolated` methods, and
// `task`'s action `@_inheritActorContext sending @isolated(any)` as in the SDK's interface file), so
// `scripts/check-uikit.sh` can type-check them on Linux against the real engine modules. Bodies are
// empty: nothing here runs. Where the stand-in is looser than SwiftUI (a modifier answers `some View`
// where SwiftUI names a concrete type) it only ever accepts less. When the views start using another
// SwiftUI API, declare it here exactly as Apple's documentation does.
import Foundation
import UIKit

// MARK: Views and builders

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

nonisolated public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public var body: Never { fatalError() }
}

nonisolated public struct EmptyModifier: ViewModifier {
    public func body(content: Content) -> Never { fatalError() }
}

nonisolated public struct ModifiedContent<Content, Modifier> {
    public init(content: Content, modifier: Modifier) {}
}
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public var body: Never { fatalError() }
}

nonisolated public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}
nonisolated public struct AnyView: View {
    public init<V: View>(_ view: V) {}
    public var body: Never { fatalError() }
}
nonisolated public struct TupleView<T>: View {
    public init(_ value: T) {}
    public var body: Never { fatalError() }
}
nonisolated public struct _ConditionalContent<TrueContent, FalseContent>: View {
    public var body: Never { fatalError() }
}
extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

@resultBuilder public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent()
    }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent()
    }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

// MARK: Layout

public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    public static let zero = UnitPoint(x: 0, y: 0), center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5), trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0), bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0), topTrailing = UnitPoint(x: 1, y: 0)
}
public struct HorizontalAlignment: Equatable, Sendable { public static let leading = Self(), center = Self(), trailing = Self() }
public struct VerticalAlignment: Equatable, Sendable { public static let top = Self(), center = Self(), bottom = Self() }
public struct Alignment: Equatable, Sendable {
    public static let center = Self(), leading = Self(), trailing = Self(), top = Self(), bottom = Self()
    public static let topLeading = Self(), topTrailing = Self(), bottomLeading = Self(), bottomTrailing = Self()
}
public enum Edge: Int8, CaseIterable, Hashable, Sendable {
    case top, leading, bottom, trailing
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1), leading = Set(rawValue: 2), bottom = Set(rawValue: 4), trailing = Set(rawValue: 8)
        public static let all: Set = [.top, .leading, .bottom, .trailing]
        public static let horizontal: Set = [.leading, .trailing], vertical: Set = [.top, .bottom]
    }
}
public enum CoordinateSpace: Hashable, Sendable { case global, local }

nonisolated public struct ZStack<Content: View>: View {
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}
nonisolated public struct VStack<Content: View>: View {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}
nonisolated public struct HStack<Content: View>: View {
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}
nonisolated public struct Spacer: View {
    public init(minLength: CGFloat? = nil) {}
    public var body: Never { fatalError() }
}

public struct GeometryProxy {
    public var size: CGSize { .zero }
}
nonisolated public struct GeometryReader<Content: View>: View {
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {}
    public var body: Never { fatalError() }
}

nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}
extension ForEach: View where Content: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) where Data == Range<Int>, ID == Int {}
    public var body: Never { fatalError() }
}

// MARK: Text, colours, shapes

public struct Font: Hashable, Sendable {
    public struct Weight: Hashable, Sendable { public static let regular = Self(), medium = Self(), semibold = Self(), bold = Self() }
    public struct Design: Hashable, Sendable { public static let `default` = Self(), monospaced = Self(), rounded = Self() }
    public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font { Font() }
    public static let body = Font(), headline = Font(), subheadline = Font(), caption = Font(), footnote = Font(), title3 = Font()
    public func monospacedDigit() -> Font { self }
    public func bold() -> Font { self }
}

nonisolated public struct Text: View, Equatable {
    public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
    public func font(_ font: Font?) -> Text { self }
    public func foregroundColor(_ color: Color?) -> Text { self }
    public func bold() -> Text { self }
    public var body: Never { fatalError() }
}

public protocol ShapeStyle: Sendable {}

nonisolated public struct Color: View, ShapeStyle, Hashable, Sendable {
    public enum RGBColorSpace: Hashable, Sendable { case sRGB, sRGBLinear, displayP3 }
    public init(_ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {}
    public init(_ colorSpace: Color.RGBColorSpace = .sRGB, white: Double, opacity: Double = 1) {}
    public init(uiColor: UIColor) {}
    public static let white = Color(white: 1), black = Color(white: 0), clear = Color(white: 0, opacity: 0)
    public static let gray = Color(white: 0.5), secondary = Color(white: 0.5), primary = Color(white: 0)
    public static let red = Color(white: 0), green = Color(white: 0)
    public func opacity(_ opacity: Double) -> Color { self }
    public var body: Never { fatalError() }
}

public enum RoundedCornerStyle: Hashable, Sendable { case circular, continuous }

public struct Path: Equatable, Sendable {
    public init() {}
    public init(_ rect: CGRect) {}
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {}
    public init(ellipseIn rect: CGRect) {}
    public mutating func move(to end: CGPoint) {}
    public mutating func addLine(to end: CGPoint) {}
    public mutating func addQuadCurve(to end: CGPoint, control: CGPoint) {}
    public mutating func closeSubpath() {}
}

public struct FillStyle: Equatable, Sendable {
    public init(eoFill: Bool = false, antialiased: Bool = true) {}
}
public struct StrokeStyle: Hashable, Sendable {
    public init(
        lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, miterLimit: CGFloat = 10, dash: [CGFloat] = [],
        dashPhase: CGFloat = 0
    ) {}
}

public protocol Shape: Sendable, View {
    func path(in rect: CGRect) -> Path
}
extension Shape {
    public var body: Never { fatalError() }
    nonisolated public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> some View { EmptyView() }
    nonisolated public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> some View { EmptyView() }
}
nonisolated public struct Rectangle: Shape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path() }
}
nonisolated public struct RoundedRectangle: Shape {
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {}
    public func path(in rect: CGRect) -> Path { Path() }
}

nonisolated public struct Button<Label: View>: View {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}
extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

// MARK: Drawing

public enum ColorRenderingMode: Hashable, Sendable { case nonLinear, linear, extendedLinear }

public struct GraphicsContext {
    public struct Shading: Sendable {
        public static func color(_ color: Color) -> GraphicsContext.Shading { Shading() }
    }
    public var opacity: Double = 1
    public var transform: CGAffineTransform = .identity
    public mutating func concatenate(_ matrix: CGAffineTransform) {}
    public mutating func translateBy(x: CGFloat, y: CGFloat) {}
    public mutating func scaleBy(x: CGFloat, y: CGFloat) {}
    public func fill(_ path: Path, with shading: GraphicsContext.Shading, style: FillStyle = FillStyle()) {}
    public func stroke(_ path: Path, with shading: GraphicsContext.Shading, style: StrokeStyle) {}
    public func stroke(_ path: Path, with shading: GraphicsContext.Shading, lineWidth: CGFloat = 1) {}
    public func draw(_ text: Text, at point: CGPoint, anchor: UnitPoint = .center) {}
}

nonisolated public struct Canvas<Symbols: View>: View {
    public var body: Never { fatalError() }
}
extension Canvas where Symbols == EmptyView {
    nonisolated public init(
        opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear, rendersAsynchronously: Bool = false,
        renderer: @escaping (inout GraphicsContext, CGSize) -> Void
    ) {}
}

public protocol TimelineSchedule {}
public struct AnimationTimelineSchedule: TimelineSchedule {
    public init(minimumInterval: Double? = nil, paused: Bool = false) {}
}
public struct EveryMinuteTimelineSchedule: TimelineSchedule { public init() {} }
extension TimelineSchedule where Self == AnimationTimelineSchedule {
    public static func animation(minimumInterval: Double? = nil, paused: Bool = false) -> AnimationTimelineSchedule {
        AnimationTimelineSchedule(minimumInterval: minimumInterval, paused: paused)
    }
}
nonisolated public struct TimelineView<Schedule: TimelineSchedule, Content> {
    public struct Context {
        public let date: Date
    }
}
public typealias TimelineViewDefaultContext = TimelineView<EveryMinuteTimelineSchedule, Never>.Context
extension TimelineView: View where Content: View {
    nonisolated public init(_ schedule: Schedule, @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content) {}
    public var body: Never { fatalError() }
}

// MARK: State and environment

public protocol DynamicProperty {}

@propertyWrapper public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) {}
    public init(initialValue value: Value) {}
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { fatalError() }
}
extension State where Value: ExpressibleByNilLiteral {
    public init() {}
}

@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { self }
    public init(projectedValue: Binding<Value>) {}
    public static func constant(_ value: Value) -> Binding<Value> { fatalError() }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { fatalError() }
}

public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}
public struct EnvironmentValues {
    public init() {}
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { fatalError() }
        set {}
    }
    public var scenePhase: ScenePhase {
        get { .active }
        set {}
    }
}
@propertyWrapper public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError() }
}
public enum ScenePhase: Comparable, Hashable, Sendable { case background, inactive, active }

// MARK: Accessibility

public struct AccessibilityTraits: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let isButton = Self(rawValue: 1), isHeader = Self(rawValue: 2), isSelected = Self(rawValue: 4)
    public static let isStaticText = Self(rawValue: 8), isImage = Self(rawValue: 16), updatesFrequently = Self(rawValue: 32)
}
public struct AccessibilityChildBehavior: Hashable, Sendable { public static let ignore = Self(), contain = Self(), combine = Self() }
public struct AccessibilityActionKind: Equatable, Sendable { public static let `default` = Self(), escape = Self(), magicTap = Self() }

// MARK: Gestures

@MainActor @preconcurrency public protocol Gesture {
    associatedtype Value
    associatedtype Body: Gesture
    var body: Self.Body { get }
}
extension Never: Gesture {
    public typealias Value = Never
}
public struct GestureMask: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let none = Self([]), gesture = Self(rawValue: 1), subviews = Self(rawValue: 2), all = Self(rawValue: 3)
}

nonisolated public struct _ChangedGesture<Content: Gesture>: Gesture {
    public typealias Value = Content.Value
    public var body: Never { fatalError() }
}
nonisolated public struct _EndedGesture<Content: Gesture>: Gesture {
    public typealias Value = Content.Value
    public var body: Never { fatalError() }
}
nonisolated public struct SequenceGesture<First: Gesture, Second: Gesture>: Gesture {
    public enum Value {
        case first(First.Value)
        case second(First.Value, Second.Value?)
    }
    public var body: Never { fatalError() }
}
extension SequenceGesture.Value: Equatable where First.Value: Equatable, Second.Value: Equatable {}
nonisolated public struct ExclusiveGesture<First: Gesture, Second: Gesture>: Gesture {
    public enum Value {
        case first(First.Value)
        case second(Second.Value)
    }
    public var body: Never { fatalError() }
}
extension ExclusiveGesture.Value: Equatable where First.Value: Equatable, Second.Value: Equatable {}
nonisolated public struct SimultaneousGesture<First: Gesture, Second: Gesture>: Gesture {
    public struct Value {
        public var first: First.Value?
        public var second: Second.Value?
    }
    public var body: Never { fatalError() }
}

extension Gesture {
    nonisolated public func onEnded(_ action: @escaping (Self.Value) -> Void) -> _EndedGesture<Self> { _EndedGesture() }
    nonisolated public func sequenced<Other: Gesture>(before other: Other) -> SequenceGesture<Self, Other> { SequenceGesture() }
    nonisolated public func exclusively<Other: Gesture>(before other: Other) -> ExclusiveGesture<Self, Other> { ExclusiveGesture() }
    nonisolated public func simultaneously<Other: Gesture>(with other: Other) -> SimultaneousGesture<Self, Other> { SimultaneousGesture() }
}
extension Gesture where Value: Equatable {
    nonisolated public func onChanged(_ action: @escaping (Self.Value) -> Void) -> _ChangedGesture<Self> { _ChangedGesture() }
}

nonisolated public struct DragGesture: Gesture {
    public struct Value: Equatable, Sendable {
        public var time: Date
        public var location: CGPoint
        public var startLocation: CGPoint
        public var translation: CGSize
        @available(iOS 17.0, macOS 14.0, *) public var velocity: CGSize { .zero }
        public var predictedEndLocation: CGPoint
        public var predictedEndTranslation: CGSize
    }
    nonisolated public init(minimumDistance: CGFloat = 10, coordinateSpace: CoordinateSpace = .local) {}
    public var body: Never { fatalError() }
}
nonisolated public struct LongPressGesture: Gesture {
    public typealias Value = Bool
    nonisolated public init(minimumDuration: Double = 0.5, maximumDistance: CGFloat = 10) {}
    public var body: Never { fatalError() }
}
nonisolated public struct SpatialTapGesture: Gesture {
    public struct Value: Equatable, Sendable {
        public var location: CGPoint
    }
    nonisolated public init(count: Int = 1, coordinateSpace: CoordinateSpace = .local) {}
    public var body: Never { fatalError() }
}
nonisolated public struct MagnificationGesture: Gesture {
    public typealias Value = CGFloat
    nonisolated public init(minimumScaleDelta: CGFloat = 0.01) {}
    public var body: Never { fatalError() }
}
@available(iOS 17.0, macOS 14.0, *)
nonisolated public struct MagnifyGesture: Gesture {
    public struct Value: Equatable, Sendable {
        public var time: Date
        public var magnification: CGFloat
        public var velocity: CGFloat
        public var startAnchor: UnitPoint
        public var startLocation: CGPoint
    }
    nonisolated public init(minimumScaleDelta: CGFloat = 0.01) {}
    public var body: Never { fatalError() }
}

// MARK: Modifiers

extension View {
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent(content: self, modifier: modifier) }

    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View { stub }
    nonisolated public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil,
        maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { stub }
    nonisolated public func position(x: CGFloat = 0, y: CGFloat = 0) -> some View { stub }
    nonisolated public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { stub }
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { stub }
    nonisolated public func padding(_ length: CGFloat) -> some View { stub }
    nonisolated public func zIndex(_ value: Double) -> some View { stub }
    nonisolated public func clipped(antialiased: Bool = false) -> some View { stub }
    nonisolated public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> some View { stub }
    nonisolated public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View { stub }
    nonisolated public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { stub }
    nonisolated public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { stub }
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { stub }
    nonisolated public func font(_ font: Font?) -> some View { stub }
    nonisolated public func lineLimit(_ number: Int?) -> some View { stub }
    nonisolated public func disabled(_ disabled: Bool) -> some View { stub }
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View { stub }

    nonisolated public func gesture<T: Gesture>(_ gesture: T, including mask: GestureMask = .all) -> some View { stub }
    nonisolated public func simultaneousGesture<T: Gesture>(_ gesture: T, including mask: GestureMask = .all) -> some View { stub }
    nonisolated public func highPriorityGesture<T: Gesture>(_ gesture: T, including mask: GestureMask = .all) -> some View { stub }

    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { stub }
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { stub }
    // The SDK's availability and deprecations, as Apple's interface declares them. Linux ignores `iOS`
    // versions, so `check-uikit.sh` also type-checks against this stand-in built as for an app whose
    // target is iOS 17 or later (SWIFTUI_STUB_IOS17_TARGET): what the SDK deprecates by then is deprecated
    // outright, and the warnings-as-errors check finds a use outside an `if #available` fallback.
    #if SWIFTUI_STUB_IOS17_TARGET
    @available(*, deprecated, message: "deprecated in iOS 17.0: use `onChange` with a two or zero parameter action closure instead")
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some View { stub }
    #else
    @available(iOS, introduced: 14.0, deprecated: 17.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(macOS, introduced: 11.0, deprecated: 14.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some View { stub }
    #endif
    @available(iOS 17.0, macOS 14.0, *)
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void)
        -> some View
    { stub }
    @available(iOS 17.0, macOS 14.0, *)
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View { stub }
    nonisolated public func task(priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void)
        -> some View
    {
        stub
    }
    nonisolated public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { stub }

    nonisolated public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { stub }
    nonisolated public func accessibilityChildren<V: View>(@ViewBuilder children: () -> V) -> some View { stub }
    nonisolated public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View { stub }
    nonisolated public func accessibilityLabel(_ label: Text) -> some View { stub }
    nonisolated public func accessibilityValue<S: StringProtocol>(_ value: S) -> some View { stub }
    nonisolated public func accessibilityHint<S: StringProtocol>(_ hint: S) -> some View { stub }
    nonisolated public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { stub }
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> some View { stub }
    nonisolated public func accessibilityAction(_ actionKind: AccessibilityActionKind = .default, _ handler: @escaping () -> Void) -> some View {
        stub
    }
    nonisolated public func accessibilityScrollAction(_ handler: @escaping (Edge) -> Void) -> some View { stub }

    nonisolated private var stub: ModifiedContent<Self, EmptyModifier> { ModifiedContent(content: self, modifier: EmptyModifier()) }
}

// MARK: Hosting in UIKit (the example app)

@MainActor open class UIHostingController<Content: View>: UIViewController {
    public init(rootView: Content) { super.init(nibName: nil, bundle: nil) }
    public required init?(coder aDecoder: NSCoder) { super.init(coder: aDecoder) }
    public var rootView: Content { fatalError() }
}
