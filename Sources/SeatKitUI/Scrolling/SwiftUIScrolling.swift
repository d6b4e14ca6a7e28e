#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SwiftUI

/// What SeatGrid and SeatCarousel share to scroll by themselves: the lift speed of a drag, and the end
/// of a fling's glide.

extension DragGesture.Value {
    /// The finger's speed in points a second when it lifts. iOS 17 reports it; before that it is read
    /// back from SwiftUI's projection, which (like UIScrollView's normal rate, 0.998 a millisecond:
    /// `Viewport.decelerationTarget`) travels about 0.5 s worth of the lift speed.
    var liftVelocity: CGSize {
        if #available(iOS 17.0, macOS 14.0, *) { return velocity }
        return CGSize(
            width: (predictedEndTranslation.width - translation.width) / 0.5,
            height: (predictedEndTranslation.height - translation.height) / 0.5)
    }
}

extension View {
    /// Clears `glide` once it has run, so the `TimelineView` that shows it can pause.
    func clearingGlide(_ glide: Binding<ScrollGlide?>) -> some View {
        task(id: glide.wrappedValue) {
            guard let running = glide.wrappedValue else { return }
            try? await Task.sleep(nanoseconds: UInt64(running.duration * 1_000_000_000))
            if glide.wrappedValue == running { glide.wrappedValue = nil }
        }
    }
}
#endif
