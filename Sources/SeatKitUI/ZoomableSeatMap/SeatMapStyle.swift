#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI

/// How a `ZoomableSeatMap` dresses the engine's picture: the ground, the row-number gutter and the
/// minimap. Set it for a whole screen with `.seatMapStyle(_:)`; the seats' own colours are the
/// engine's (`Palette`, the zones' colours), the same in SVG, UIKit and the web page.
public struct SeatMapStyle: Sendable, Hashable {
    public var background: Color
    /// The row numbers pinned to the left edge (the engine's gutter labels).
    public var showsGutter: Bool
    public var gutterWidth: Double
    public var gutterBackground: Color
    public var gutterText: Color
    /// The whole venue small, top right, with the viewport's rectangle; a tap on it pans there.
    public var showsMinimap: Bool
    public var minimapBackground: Color

    /// The UIKit `SeatMapView`'s look: white ground, a dark translucent gutter 28 points wide.
    public init(
        background: Color = .white, showsGutter: Bool = true, gutterWidth: Double = 28,
        gutterBackground: Color = Color(.sRGB, red: 0.13, green: 0.13, blue: 0.14, opacity: 0.45), gutterText: Color = .white,
        showsMinimap: Bool = true, minimapBackground: Color = Color(.sRGB, white: 1, opacity: 0.85)
    ) {
        self.background = background; self.showsGutter = showsGutter; self.gutterWidth = gutterWidth
        self.gutterBackground = gutterBackground; self.gutterText = gutterText
        self.showsMinimap = showsMinimap; self.minimapBackground = minimapBackground
    }
}

private struct SeatMapStyleKey: EnvironmentKey {
    static let defaultValue = SeatMapStyle()
}

extension EnvironmentValues {
    /// The style `ZoomableSeatMap`s below this point use.
    public var seatMapStyle: SeatMapStyle {
        get { self[SeatMapStyleKey.self] }
        set { self[SeatMapStyleKey.self] = newValue }
    }
}

extension View {
    /// Dresses every `ZoomableSeatMap` inside this view.
    public func seatMapStyle(_ style: SeatMapStyle) -> some View { environment(\.seatMapStyle, style) }
}
#endif
