#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SeatCanvas
import SeatMap
import SeatSync
import SwiftUI
import UIKit

/// A zoomable seat map for SwiftUI, the counterpart of the UIKit `SeatMapView`: the engine decides
/// what is visible, at which level of detail, where a finger lands and what VoiceOver says; this view
/// draws the engine's display list into one `Canvas` (not a view a seat: 100,000 seats stay one view)
/// and forwards gestures. Pan with one finger, pinch to zoom, tap a seat, press and drag across a row
/// to pick several at once.
///
/// Bound to a `SeatSession`, the map shows the session's state (server truth, this buyer's hold, what
/// is in flight), taps and drags become the session's selections, its messages are spoken once, and
/// coming back to the foreground resumes it:
///
/// ```swift
/// ZoomableSeatMap(canvas: canvas, session: session, state: firstState, language: .english)
///     .onSessionMessage { message in banner = message.english }
///     .seatMapStyle(SeatMapStyle(showsMinimap: false))
/// ```
///
/// Without a session it draws the content it is given (a heat map, a box-office view) and taps toggle
/// `selection` when one is bound.
///
/// It is named `ZoomableSeatMap`, not `SeatMap`, because `SeatMap` is the engine module's name: a
/// type of that name would make `SeatMap.SeatIndex` mean a member of the view in every app.
public struct ZoomableSeatMap: View {
    let canvas: SeatCanvas
    /// The content given at creation; with a session, its availability and selection are the session's.
    let content: FrameContent
    let session: SeatSession?
    let initialState: SessionState?
    let selection: Binding<Set<SeatIndex>>?
    var detailPolicy = DetailPolicy()
    var tapAction: ((SeatIndex) -> Void)?
    var dragAction: (([SeatIndex]) -> Void)?
    var messageAction: ((SessionMessage) -> Void)?
    var areaAction: ((PlacedArea) -> Void)?

    @Environment(\.seatMapStyle) var style
    @Environment(\.scenePhase) var scenePhase
    /// The viewport as the last gesture left it (nil until the first one: the engine's opening viewport).
    @State var storedViewport: Viewport?
    /// The session's latest state (nil until its stream first speaks: then `initialState`).
    @State var sessionState: SessionState?
    @State var panTranslation = CGSize.zero
    @State var pinchScale: CGFloat = 1
    @State var dragPath: [LayoutPoint] = []
    @State var wasInBackground = false

    /// A map of `content`; taps toggle `selection` when it is given (and `onSeatTap` hears them).
    /// - Complexity: O(1); drawing a frame is O(what is visible).
    public init(canvas: SeatCanvas, content: FrameContent, selection: Binding<Set<SeatIndex>>? = nil) {
        self.canvas = canvas
        self.content = content
        self.session = nil
        self.initialState = nil
        self.selection = selection
    }

    /// A map of `session`'s show: `state` is the session's state now (`await session.state`), shown
    /// until the session's stream speaks. `selection`, when given, follows the session's selection.
    public init(
        canvas: SeatCanvas, session: SeatSession, state: SessionState, language: Language = .chinese,
        selection: Binding<Set<SeatIndex>>? = nil
    ) {
        self.canvas = canvas
        self.content = FrameContent(availability: state.server, selection: state.selection, language: language)
        self.session = session
        self.initialState = state
        self.selection = selection
    }

    /// What is drawn now: the session's state when bound, else the content and the bound selection.
    var shown: FrameContent {
        var c = content
        if let state = sessionState ?? initialState {
            c.availability = state.server
            c.selection = state.selection
        } else if let selection {
            c.selection = selection.wrappedValue
        }
        return c
    }

    /// The stored viewport fitted to `size`, or the engine's opening viewport for a finger (the whole
    /// hall when its seats are 12 points or more there, else seats of 24 points with the screen in view;
    /// the first seats beside the gutter, not under it).
    func viewport(for size: LayoutSize) -> Viewport {
        guard var v = storedViewport else {
            return canvas.touchViewport(viewSize: size, gutterWidth: style.showsGutter ? style.gutterWidth : 0)
        }
        if v.viewSize != size { v.resize(to: size) }
        return v
    }

    public var body: some View {
        GeometryReader { proxy in
            let size = LayoutSize(proxy.size)
            let viewport = viewport(for: size)
            let content = shown
            let frame = canvas.displayList(viewport: viewport, content: content, policy: detailPolicy)
            ZStack(alignment: .topLeading) {
                Canvas { context, _ in context.draw(frame) }
                if style.showsGutter {
                    labelStrip(
                        canvas.gutter(in: viewport, policy: detailPolicy).map { ($0.label, $0.y) }, across: false,
                        size: CGSize(width: CGFloat(style.gutterWidth), height: proxy.size.height))
                    labelStrip(
                        canvas.topGutter(in: viewport, policy: detailPolicy).map { ($0.label, $0.x) }, across: true,
                        size: CGSize(width: proxy.size.width, height: 18))
                }
                if style.showsMinimap { minimap(viewport: viewport, content: content, viewSize: proxy.size) }
            }
            .frame(width: proxy.size.width, height: proxy.size.height, alignment: .topLeading)
            .contentShape(Rectangle())
            .gesture(selectOrPan(size))
            .simultaneousGesture(SpatialTapGesture().onEnded { tapped(at: LayoutPoint($0.location), size: size) })
            .modifier(PinchToZoom(changed: { pinched(to: $0, focal: $1, size: size) }, ended: { pinchScale = 1 }))
            .accessibilityElement(children: .contain)
            .accessibilityChildren { seatElements(viewport: viewport, content: content) }
            .accessibilityScrollAction { scrolled(toward: $0, size: size) }
            .onValueChange(of: proxy.size) { newSize in
                // Rotation and split view keep the point at the centre where it was (the engine's resize).
                if var v = storedViewport { v.resize(to: LayoutSize(newSize)); storedViewport = v }
            }
        }
        .clipped()
        .background(style.background)
        .task(id: session.map(ObjectIdentifier.init)) { await followStates() }
        .task(id: session.map(ObjectIdentifier.init)) { await speakMessages() }
        .onValueChange(of: scenePhase) { phase in resumeIfBack(phase) }
    }

    /// The row numbers at the heights the engine's gutter gives.
    /// Row numbers in a strip: the left gutter's at their y, the top one's at their x (drawn if any).
    @ViewBuilder func labelStrip(_ labels: [(text: String, at: Double)], across: Bool, size: CGSize) -> some View {
        if !across || !labels.isEmpty {
            let style = style
            Canvas { context, size in
                for label in labels {
                    let text = Text(verbatim: label.text).font(.system(size: 11, weight: .medium).monospacedDigit()).foregroundColor(style.gutterText)
                    let at = across ? CGPoint(x: CGFloat(label.at), y: size.height / 2) : CGPoint(x: size.width / 2, y: CGFloat(label.at))
                    context.draw(text, at: at, anchor: .center)
                }
            }
            .frame(width: size.width, height: size.height).background(style.gutterBackground).accessibilityHidden(true)
        }
    }

    /// Where the minimap sits: top right, 8 points in, 140 × 100 at most, a third of the width and a
    /// quarter of the height (the UIKit view's sizes).
    func minimapFrame(_ viewSize: LayoutSize) -> LayoutRect {
        let size = LayoutSize(width: min(140, viewSize.width / 3), height: min(100, viewSize.height / 4))
        return LayoutRect(x: viewSize.width - size.width - 8, y: 8, width: size.width, height: size.height)
    }

    /// The whole venue small, with the viewport's rectangle; a tap centres the map there.
    func minimap(viewport: Viewport, content: FrameContent, viewSize: CGSize) -> some View {
        let frame = minimapFrame(LayoutSize(viewSize))
        let minimap = canvas.minimap(fitting: frame.size)
        let picture = canvas.minimapDisplayList(minimap, viewport: viewport, content: content)
        return Canvas { context, _ in context.draw(picture) }
            .frame(width: CGFloat(frame.width), height: CGFloat(frame.height))
            .background(style.minimapBackground)
            .contentShape(Rectangle())
            .gesture(
                SpatialTapGesture().onEnded { value in
                    storedViewport = minimap.pan(viewport, tappedAt: LayoutPoint(value.location))
                }
            )
            .position(x: CGFloat(frame.midX), y: CGFloat(frame.midY))
            .accessibilityHidden(true)
    }
}
#endif
