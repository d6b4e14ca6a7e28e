#if canImport(UIKit)
import CollectionLayout
import SeatCanvas
import SeatMap
import SeatSync
import UIKit

/// Touches in, engine calls out: pan and pinch move the viewport, a tap asks the hit test, a press and
/// drag asks for the seats along the path; with a bound session, selections go through it.
extension SeatMapView {
    func installGestures() {
        addGestureRecognizer(UIPanGestureRecognizer(target: self, action: #selector(handlePan(_:))))
        addGestureRecognizer(UIPinchGestureRecognizer(target: self, action: #selector(handlePinch(_:))))
        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(handleTap(_:))))
        let press = UILongPressGestureRecognizer(target: self, action: #selector(handleDragSelect(_:)))
        press.minimumPressDuration = 0.3
        addGestureRecognizer(press)
    }

    @objc func handlePan(_ g: UIPanGestureRecognizer) {
        let t = g.translation(in: self)
        g.setTranslation(.zero, in: self)
        updateViewport { $0.pan(by: LayoutPoint(t)) }
        if g.state == .ended { UIAccessibility.post(notification: .layoutChanged, argument: nil) }
    }

    @objc func handlePinch(_ g: UIPinchGestureRecognizer) {
        let focal = LayoutPoint(g.location(in: self))
        let factor = Double(g.scale)
        g.scale = 1
        updateViewport { $0.zoom(by: factor, focal: focal) }
        if g.state == .ended { UIAccessibility.post(notification: .layoutChanged, argument: nil) }
    }

    @objc func handleTap(_ g: UITapGestureRecognizer) {
        let finger = LayoutPoint(g.location(in: self))
        guard let viewport else { return }
        // A standing area: its places are asked for by count (the app's stepper), never one by one.
        if let area = canvas.area(at: finger, in: viewport) {
            delegate?.seatMapView(self, didTapArea: area)
            return
        }
        // A table's top is a tap on the table (its first seat: what it takes is the show's rule).
        guard let seat = canvas.table(at: finger, in: viewport)?.seats.lowerBound ?? canvas.hitTest(finger, in: viewport) else { return }
        // The whole hall opened small: the tapped seat grows to a finger's size where it is.
        if let zoom = canvas.zoomAfterTap(zoom: viewport.zoom) { updateViewport { $0.zoom(to: zoom, focal: finger) } }
        delegate?.seatMapView(self, didTapSeat: seat)
        tapThroughSession(seat)
    }

    @objc func handleDragSelect(_ g: UILongPressGestureRecognizer) {
        switch g.state {
        case .began: dragPoints = [LayoutPoint(g.location(in: self))]
        case .changed: dragPoints.append(LayoutPoint(g.location(in: self)))
        case .ended:
            guard let viewport else { return }
            let seats = canvas.seats(alongDrag: dragPoints, in: viewport)
            dragPoints = []
            guard !seats.isEmpty else { return }
            delegate?.seatMapView(self, didDragAcross: seats)
            selectThroughSession(seats)
        default: dragPoints = []
        }
    }

    // — A SeatSync session: its state is what the map shows; taps become its selections —

    /// Shows `session`'s state from now on (server truth, this buyer's hold and what is in flight) and
    /// sends taps and drags to it. Refusals arrive as messages, each once (delegate and a VoiceOver
    /// announcement): from the session's message stream, not from its states, which keep the last
    /// message while live updates come in (VoiceOver said it again on every one). Returning to the
    /// foreground resumes the session (its hold and seats asked for again).
    public func bind(to session: SeatSession) {
        self.session = session
        sessionTask?.cancel()
        // Back from the background the seats and the hold may have changed (the hold expired, someone
        // else took its seats): the session asks the server for both (`SeatSession.resume`).
        if let old = foregroundObserver { NotificationCenter.default.removeObserver(old) }
        foregroundObserver = NotificationCenter.default.addObserver(
            forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main
        ) { _ in Task { await session.resume() } }
        sessionTask = Task { [weak self] in
            for await state in await session.states() {
                guard let self else { return }
                self.show(state)
            }
        }
        messageTask?.cancel()
        messageTask = Task { [weak self] in
            for await message in await session.messages() {
                guard let self else { return }
                self.say(message)
            }
        }
    }

    func show(_ state: SessionState) {
        var next = content
        next.availability = state.server
        next.selection = state.selection
        content = next
    }

    func say(_ message: SessionMessage) {
        delegate?.seatMapView(self, didReceive: message)
        UIAccessibility.post(notification: .announcement, argument: content.language == .chinese ? message.chinese : message.english)
    }

    /// One tap: the session takes what the show's rule says (a table sold whole: all of it).
    func tapThroughSession(_ seat: SeatIndex) {
        guard let session else { return }
        let id = canvas.layout.seatID(seat)
        Task { await session.tap(id) }
    }

    func selectThroughSession(_ seats: [SeatIndex]) {
        guard let session else { return }
        let ids = seats.filter { !content.selection.contains($0) }.map { canvas.layout.seatID($0) }
        if !ids.isEmpty { Task { await session.select(ids) } }
    }
}

/// A seat for VoiceOver; activating it is a tap on that seat.
final class SeatAccessibilityElement: UIAccessibilityElement {
    var seat: SeatIndex = 0

    override func accessibilityActivate() -> Bool {
        guard let map = accessibilityContainer as? SeatMapView else { return false }
        map.delegate?.seatMapView(map, didTapSeat: seat)
        map.tapThroughSession(seat)
        return true
    }
}
#endif
