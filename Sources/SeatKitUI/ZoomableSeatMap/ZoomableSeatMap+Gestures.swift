#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SeatCanvas
import SeatMap
import SwiftUI

/// Touches in, engine calls out, as in the UIKit view: a pan moves the viewport, a pinch zooms it about
/// the fingers, a tap asks the hit test (44-point targets), a press held 0.3 s and dragged asks for the
/// seats along the path.
extension ZoomableSeatMap {
    /// Press-and-drag selection first; if the finger moves before 0.3 s the press fails and it is a pan.
    func selectOrPan(_ size: LayoutSize) -> some Gesture {
        let select = LongPressGesture(minimumDuration: 0.3)
            .sequenced(before: DragGesture(minimumDistance: 0))
            .onChanged { value in
                if case .second(true, let drag?) = value { dragPath.append(LayoutPoint(drag.location)) }
            }
            .onEnded { _ in finishDragSelection(size) }
        let pan = DragGesture(minimumDistance: 4)
            .onChanged { value in
                let step = LayoutPoint(x: value.translation.width - panTranslation.width, y: value.translation.height - panTranslation.height)
                panTranslation = value.translation
                change(size) { $0.pan(by: step) }
            }
            .onEnded { _ in panTranslation = .zero }
        return select.exclusively(before: pan)
    }

    /// Moves the map; the engine clamps the change.
    func change(_ size: LayoutSize, _ edit: (inout Viewport) -> Void) {
        var v = viewport(for: size)
        edit(&v)
        storedViewport = v
    }

    func pinched(to magnification: CGFloat, focal: CGPoint?, size: LayoutSize) {
        let factor = Double(magnification / pinchScale)
        pinchScale = magnification
        let centre = LayoutPoint(x: size.width / 2, y: size.height / 2)
        change(size) { $0.zoom(by: factor, focal: focal.map(LayoutPoint.init) ?? centre) }
    }

    func tapped(at point: LayoutPoint, size: LayoutSize) {
        // The map's tap runs alongside the minimap's own: a tap on the minimap only pans.
        if style.showsMinimap, minimapFrame(size).contains(point) { return }
        let current = viewport(for: size)
        // A standing area: its places are asked for by count, never one by one.
        if let area = canvas.area(at: point, in: current) { return areaAction?(area) ?? () }
        // A table's top is a tap on the table (its first seat: what it takes is the show's rule).
        guard let seat = canvas.table(at: point, in: current)?.seats.lowerBound ?? canvas.hitTest(point, in: current) else { return }
        // The whole hall opened small: the tapped seat grows to a finger's size where it is.
        if let zoom = canvas.zoomAfterTap(zoom: current.zoom) { change(size) { $0.zoom(to: zoom, focal: point) } }
        activate([seat])
    }

    func finishDragSelection(_ size: LayoutSize) {
        let seats = canvas.seats(alongDrag: dragPath, in: viewport(for: size))
        dragPath = []
        guard !seats.isEmpty else { return }
        dragAction?(seats)
        if let session {
            let layout = canvas.layout
            let ids = seats.filter { !shown.selection.contains($0) }.map { layout.seatID($0) }
            if !ids.isEmpty { Task { await session.select(ids) } }
        } else if let selection {
            selection.wrappedValue.formUnion(seats)
        }
    }

    /// A tap (or VoiceOver's activate) on seats: through the session when bound, else toggling the
    /// bound selection. Seats all chosen already are let go; otherwise they are asked for.
    func activate(_ seats: [SeatIndex]) {
        if seats.count == 1 { tapAction?(seats[0]) }
        let chosen = shown.selection
        let allChosen = seats.allSatisfy { chosen.contains($0) }
        if let session {
            let layout = canvas.layout
            let ids = seats.map { layout.seatID($0) }
            // One seat is a tap: the session takes what the show's rule says (a table sold whole).
            Task { if ids.count == 1 { await session.tap(ids[0]) } else if allChosen { await session.deselect(ids) } else { await session.select(ids) } }
        } else if let selection {
            if allChosen { selection.wrappedValue.subtract(seats) } else { selection.wrappedValue.formUnion(seats) }
        }
    }

    /// VoiceOver's three-finger scroll: most of a screen that way (the engine clamps at the edges).
    func scrolled(toward edge: Edge, size: LayoutSize) {
        let page = 0.8
        let step: LayoutPoint
        switch edge {
        case .top: step = LayoutPoint(x: 0, y: size.height * page)
        case .bottom: step = LayoutPoint(x: 0, y: -size.height * page)
        case .leading: step = LayoutPoint(x: size.width * page, y: 0)
        case .trailing: step = LayoutPoint(x: -size.width * page, y: 0)
        }
        change(size) { $0.pan(by: step) }
    }
}

/// Pinch to zoom about the fingers where SwiftUI says where they are (iOS 17's `MagnifyGesture`),
/// about the centre before that.
struct PinchToZoom: ViewModifier {
    let changed: (CGFloat, CGPoint?) -> Void
    let ended: () -> Void

    func body(content: Content) -> some View {
        if #available(iOS 17.0, macOS 14.0, *) {
            content.simultaneousGesture(
                MagnifyGesture().onChanged { changed($0.magnification, $0.startLocation) }.onEnded { _ in ended() })
        } else {
            content.simultaneousGesture(MagnificationGesture().onChanged { changed($0, nil) }.onEnded { _ in ended() })
        }
    }
}
#endif
