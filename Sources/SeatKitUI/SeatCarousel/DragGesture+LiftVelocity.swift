#if canImport(SwiftUI) && canImport(UIKit)
import Foundation
import SwiftUI

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
#endif
