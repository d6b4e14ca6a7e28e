#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SeatCanvas
import SeatMap
import SeatSync
import SwiftUI
import UIKit

/// The session binding and VoiceOver: the same rules as the UIKit view's `bind(to:)`.
extension ZoomableSeatMap {
    /// The session's states, as they come, are what the map shows.
    func followStates() async {
        guard let session else { return }
        for await state in await session.states() {
            sessionState = state
            if let selection, selection.wrappedValue != state.selection { selection.wrappedValue = state.selection }
        }
    }

    /// Each refusal or expiry spoken once: from the session's message stream, not from its states,
    /// which keep the last message while live updates arrive (VoiceOver said it again on every one).
    func speakMessages() async {
        guard let session else { return }
        for await message in await session.messages() {
            messageAction?(message)
            UIAccessibility.post(notification: .announcement, argument: content.language == .chinese ? message.chinese : message.english)
        }
    }

    /// Back from the background the hold may have expired and seats changed hands: the session asks
    /// the server for both (`SeatSession.resume`).
    func resumeIfBack(_ phase: ScenePhase) {
        switch phase {
        case .background: wasInBackground = true
        case .active:
            guard wasInBackground else { return }
            wasInBackground = false
            if let session { Task { await session.resume() } }
        default: break
        }
    }

    /// The visible seats for VoiceOver, in reading order, from the engine's accessibility model: each
    /// with its spoken label (zone, row, seat, price, status), button and selected traits, dimmed when
    /// it cannot be chosen; activating one is a tap on it.
    func seatElements(viewport: Viewport, content: FrameContent) -> some View {
        let elements = canvas.accessibilityElements(in: viewport, content: content)
        return ZStack(alignment: .topLeading) {
            ForEach(elements, id: \.seat) { element in
                Rectangle()
                    .frame(width: CGFloat(element.frame.width), height: CGFloat(element.frame.height))
                    .position(x: CGFloat(element.frame.midX), y: CGFloat(element.frame.midY))
                    .accessibilityLabel(element.label)
                    .accessibilityAddTraits(element.traits.contains(.selected) ? [.isButton, .isSelected] : .isButton)
                    .accessibilityAction { activate([element.seat]) }
                    .disabled(element.traits.contains(.notEnabled))
            }
        }
    }
}

// — SwiftUI-style modifiers: each answers a copy of the map with one thing changed —

extension ZoomableSeatMap {
    /// Heard on every tap that lands on a seat (after the engine's hit test), before the selection changes.
    public func onSeatTap(_ action: @escaping (SeatIndex) -> Void) -> Self {
        var copy = self
        copy.tapAction = action
        return copy
    }

    /// Heard when a tap lands in a general-admission area: its places are asked for by count (show a
    /// stepper; `SeatSession.setPlaces`).
    public func onAreaTap(_ action: @escaping (PlacedArea) -> Void) -> Self {
        var copy = self
        copy.areaAction = action
        return copy
    }

    /// Heard when a press-and-drag crosses seats, in the order crossed (one atomic selection).
    public func onSeatDrag(_ action: @escaping ([SeatIndex]) -> Void) -> Self {
        var copy = self
        copy.dragAction = action
        return copy
    }

    /// Heard once for each message of the bound session (a seat taken, a rule, expiry, a failure),
    /// besides the VoiceOver announcement the map makes itself.
    public func onSessionMessage(_ action: @escaping (SessionMessage) -> Void) -> Self {
        var copy = self
        copy.messageAction = action
        return copy
    }

    /// Where the level of detail switches (zones → rows → seats), by a seat's size on screen.
    public func detailPolicy(_ policy: DetailPolicy) -> Self {
        var copy = self
        copy.detailPolicy = policy
        return copy
    }
}
#endif
